extension VerificationReport {
    /// The graph as a Mermaid flowchart (it renders in GitHub Markdown inside a `mermaid` code
    /// block): one box per registration with its scope, dashed arrows for `@Injected` properties,
    /// missing types and the edges of every problem in red, captive and per-request dependencies
    /// in orange, types provided per request in blue.
    public func mermaid() -> String {
        let ids = nodeIDs()
        var lines = ["flowchart LR"]
        for node in graph.nodes {
            let style = node.isRegistered ? "" : node.isProvidedPerRequest ? ":::perRequest" : ":::missing"
            lines.append(
                "    \(ids[node]!)[\"\(Self.mermaidEscaped(node.description))<br/>\(Self.mermaidEscaped(node.scopeLabel))\"]\(style)"
            )
        }
        let colours = highlightColours()
        var styles: [String] = []
        for (index, edge) in graph.edges.enumerated() {
            let arrow = edge.isLazy ? "-. @Injected .->" : "-->"
            lines.append("    \(ids[edge.from]!) \(arrow) \(ids[edge.to]!)")
            if let colour = colours[[edge.from, edge.to]] {
                styles.append("    linkStyle \(index) stroke:\(colour),stroke-width:3px")
            }
        }
        lines += styles
        lines.append("    classDef missing fill:#fee2e2,stroke:#dc2626,color:#991b1b")
        if graph.nodes.contains(where: \.isProvidedPerRequest) {
            lines.append("    classDef perRequest fill:#dbeafe,stroke:#2563eb,color:#1e3a8a")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The graph in Graphviz DOT (`dot -Tsvg`): the same content and colours as ``mermaid()``.
    public func dot() -> String {
        let ids = nodeIDs()
        var lines = [
            "digraph dependencies {",
            "    rankdir=LR;",
            "    node [shape=box, style=rounded, fontname=\"Helvetica\"];",
        ]
        for node in graph.nodes {
            let label = Self.dotEscaped(node.description) + "\\n" + Self.dotEscaped(node.scopeLabel)
            let style =
                node.isRegistered
                ? ""
                : node.isProvidedPerRequest
                    ? ", color=\"#2563eb\", fontcolor=\"#1e3a8a\"" : ", color=\"#dc2626\", fontcolor=\"#991b1b\""
            lines.append("    \(ids[node]!) [label=\"\(label)\"\(style)];")
        }
        let colours = highlightColours()
        for edge in graph.edges {
            var attributes: [String] = []
            if edge.isLazy { attributes += ["style=dashed", "label=\"@Injected\""] }
            if let colour = colours[[edge.from, edge.to]] {
                attributes += ["color=\"\(colour)\"", "penwidth=2"]
            }
            let suffix = attributes.isEmpty ? "" : " [\(attributes.joined(separator: ", "))]"
            lines.append("    \(ids[edge.from]!) -> \(ids[edge.to]!)\(suffix);")
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    private func nodeIDs() -> [DependencyGraph.Node: String] {
        Dictionary(uniqueKeysWithValues: graph.nodes.enumerated().map { ($1, "n\($0)") })
    }

    /// The edges on some problem's path, by their two ends, with the colour of the problem's
    /// kind (captive and per-request dependencies lose to the others).
    private func highlightColours() -> [[DependencyGraph.Node]: String] {
        var highlights: [[DependencyGraph.Node]: VerificationProblem.Kind] = [:]
        for problem in problems where problem.path.count > 1 {
            for (from, to) in zip(problem.path, problem.path.dropFirst()) {
                let ends = [from, to]
                if highlights[ends].map(Self.isAboutLifetimes) ?? true {
                    highlights[ends] = problem.kind
                }
            }
        }
        return highlights.mapValues { Self.isAboutLifetimes($0) ? "#d97706" : "#dc2626" }
    }

    /// Whether a problem of `kind` is an instance kept longer than what it holds should be (drawn
    /// in orange) rather than a resolve that fails (red).
    private static func isAboutLifetimes(_ kind: VerificationProblem.Kind) -> Bool {
        kind == .captive || kind == .perRequestDependency
    }

    private static func mermaidEscaped(_ text: String) -> String {
        escaped(text, ["\"": "#quot;", "<": "#lt;", ">": "#gt;"])
    }

    private static func dotEscaped(_ text: String) -> String {
        escaped(text, ["\"": "\\\"", "\\": "\\\\"])
    }

    /// `text` with each character that `replacements` has replaced by its replacement.
    private static func escaped(_ text: String, _ replacements: [Character: String]) -> String {
        text.map { replacements[$0] ?? String($0) }.joined()
    }
}

import Foundation
import Hummingbird
import Logging
import PriceServer
import Services

// price-server: the price and the access token from `Services`, over HTTP, through a store per
// request (or wired by hand, with --hand-wired). Run `price-server --help` for the options.

// The log goes to stderr, so that stdout carries only the `listening on` line a script reads.
LoggingSystem.bootstrap(StreamLogHandler.standardError)

func fail(_ message: String, status: Int32) -> Never {
    try? FileHandle.standardError.write(contentsOf: Data("price-server: \(message)\n".utf8))
    exit(status)
}

let options: ServerOptions
do {
    switch try ServerOptions.parse(Array(CommandLine.arguments.dropFirst())) {
    case .help:
        print(ServerOptions.usage)
        exit(0)
    case .serve(let parsed):
        options = parsed
    }
} catch {
    fail("\(error)\n\n\(ServerOptions.usage)", status: 64)
}

/// Serves `router` until SIGINT or SIGTERM, and prints where once it listens.
func serve(_ router: Router<PriceRequestContext>, options: ServerOptions) async throws {
    let application = Application(
        router: router,
        configuration: ApplicationConfiguration(address: .hostname(options.hostname, port: options.port)),
        onServerRunning: { channel in
            // With --port 0 the system picks the port: the channel knows which.
            let port = channel.localAddress?.port ?? options.port
            let host = options.hostname.contains(":") ? "[\(options.hostname)]" : options.hostname
            // Written whole and unbuffered, so a script reading a pipe sees it at once.
            try? FileHandle.standardOutput.write(contentsOf: Data("listening on \(host):\(port)\n".utf8))
        }
    )
    try await application.runService()
}

let services = ServicesConfiguration(demo: options.demo)
do {
    if options.handWired {
        try await serve(HandWiredServer.router(services), options: options)
    } else {
        try await serve(StoreWiredServer.router(app: StoreWiredServer.appStore(services)), options: options)
    }
} catch {
    fail("cannot serve on \(options.hostname):\(options.port): \(error)", status: 1)
}

protocol Networking {}
protocol PriceFetching {}
struct URLSessionNetworking: Networking {}
struct PriceFetcher: PriceFetching { let networking: Networking }
struct User {}
struct FormattingAssembly: Assembly { func assemble(into store: DependencyStore) {} }
struct NetworkAssembly: Assembly { func assemble(into store: DependencyStore) {} }
struct SessionAssembly: Assembly {
    let user: User
    func assemble(into store: DependencyStore) {}
}
struct Feature { let assembly: any Assembly }

let user = User()
@MainActor let features = [Feature(assembly: NetworkAssembly())]

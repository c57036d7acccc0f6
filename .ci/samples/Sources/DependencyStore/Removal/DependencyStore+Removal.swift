final class SessionRepository {}
struct User {}
struct SessionAssembly: Assembly {
    let user: User
    func assemble(into store: DependencyStore) {}
}
protocol PaymentGateway {}
struct CheckoutModel { let gateway: PaymentGateway }

let user = User()

// "Layered stores" declares its own store; it assumes the app's networking and view model.
import DependencyStore

protocol Networking {}
struct MockNetworking: Networking {}

protocol PriceFetching {}

final class PriceViewModel {
    @Injected var fetcher: PriceFetching
}

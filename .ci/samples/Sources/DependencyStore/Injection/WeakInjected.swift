protocol Coordinating: AnyObject {}
final class CheckoutCoordinator: Coordinating { func stepDidFinish() {} }

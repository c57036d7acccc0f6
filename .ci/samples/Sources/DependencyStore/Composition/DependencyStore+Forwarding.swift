protocol TokenProviding: AnyObject {}
protocol UserProviding: AnyObject {}
final class SessionStore: TokenProviding, UserProviding {}

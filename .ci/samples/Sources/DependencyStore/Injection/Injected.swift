protocol AccessTokenServiceType { func accessToken() -> String? }
protocol Networking {}
protocol Greeting { var text: String { get } }
protocol PriceFetching {}

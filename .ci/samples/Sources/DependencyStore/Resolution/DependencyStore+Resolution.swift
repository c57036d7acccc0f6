protocol PriceFetching {}
protocol PriceFormatting {}
protocol Greeting {}
protocol Analytics { func track(_ event: String) }

enum Currency { case usd }
struct Greeter {}
struct PriceView {}

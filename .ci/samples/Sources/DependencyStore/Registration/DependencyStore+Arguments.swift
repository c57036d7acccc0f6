protocol Clock {}
protocol PriceFetching {}
protocol ReceiptFormatting {}
struct Window {}
struct Order {}
struct Greeter {
    let name: String
    let clock: Clock
}
struct Screen {
    let window: Window?
    let date: Date
    let fetcher: PriceFetching
}
struct Receipt {
    let order: Order
    let date: Date
    let note: String?
    let formatter: ReceiptFormatting
}

let window: Window? = Window()
let order = Order()

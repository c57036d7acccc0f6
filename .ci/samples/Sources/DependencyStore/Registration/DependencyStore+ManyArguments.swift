protocol PaymentService {}
struct Cart {}
struct User {}
struct CheckoutModel {
    let cart: Cart
    let user: User
    let coupon: String?
    let locale: Locale
    let payments: PaymentService
}

let cart = Cart()
let user = User()

protocol PaymentService { func charge() }
struct User {}

final class Session {
    let token = "t-1"
    func close() {}
}

struct MockNetworking: Networking {
    enum Reply { case ok }
    let reply: Reply
    func data(for endpoint: Endpoint) async throws(NetworkError) -> Data { Data(SampleNetworking.response.utf8) }
}

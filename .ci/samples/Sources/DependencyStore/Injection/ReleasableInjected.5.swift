import Testing

final class AccountModel { @ReleasableInjected var session: Session }

@MainActor let model = AccountModel()

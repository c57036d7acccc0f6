final class SomeViewModel { @Injected var accessTokenService: AccessTokenServiceType }

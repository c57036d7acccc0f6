import Testing

final class Screen { @Injected var greeting: Greeting }

@MainActor let screen = Screen()

// The reader's types of the generated examples (see Tests/DependencyStoreTests/EveryArityTests.generated.swift).
final class ProfileDirectory {}
final class Profile {
    init(
        name: String? = nil, age: Int? = nil, city: String? = nil, admin: Bool? = nil, rank: Int? = nil,
        team: String? = nil, year: Int? = nil, score: Double? = nil, topic: String? = nil, directory: ProfileDirectory
    ) {}
}

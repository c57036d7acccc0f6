import Foundation

// The caches that `expiring(after:)` and `cachedPerArgument()` ask for: where their instances are
// kept (`CachedInstances`, in the slot), and the build that checks them (`buildCached`). A
// registration without either keeps its instance in `InstanceSlot.box` and never comes here.

/// What the modifiers of a registration's entry said about the instances a slot keeps (see
/// `Registration.keptOptions`).
struct KeptOptions<T> {
    /// How they are closed, as `closing { }` said: the close of one instance.
    var close: ((T) -> CloseAction)?
    /// How they are cached, as `expiring(after:)` and `cachedPerArgument()` said.
    var caching: CachePolicy?
    /// Whether `T` is an `Optional`: a `nil` result is handed out and not kept.
    let mayBeNil: Bool
    /// Set by the first build of the registration in any store: from then on a modifier that
    /// changes the caching traps, since instances kept already were kept without it.
    var built = false
}

/// How a registration caches: for how long an instance is good, and whether there is one per
/// distinct argument value.
struct CachePolicy: Sendable {
    /// `expiring(after:)`: the seconds an instance is handed out for, from when it was kept.
    var lifetime: TimeInterval?
    /// `cachedPerArgument()`: one instance per distinct value of the arguments.
    var perArgument = false
    /// `cachedPerArgument(limit:)`: how many instances are kept at most.
    var limit: Int?
}

/// The arguments of a resolve as a per-argument cache tells them apart; empty for a cache of one.
typealias CacheKey = [AnyHashable]

/// A time read on a clock, with the installation it was read on.
struct Reading {
    let clock: InstalledClock
    let time: TimeInterval
}

/// The instances a slot keeps for a registration with a cache policy, by the arguments they were
/// built with, each with the time it was kept, its place in the order of closing, and its last
/// use (for a limit). Only ever touched under the lock of the store that owns the slot.
final class CachedInstances {
    struct Entry {
        let box: AnyObject
        /// When it was kept, with the clock that was read on: held, so that no other installation
        /// can take its address. An entry timed by a clock the store no longer reads has expired,
        /// since its age cannot be told on the new one.
        let keptAt: Reading?
        let sequence: Int
        var lastUse: Int
    }

    private var entries: [CacheKey: Entry] = [:]
    /// Counts uses, for `lastUse`.
    private var uses = 0

    var count: Int { entries.count }

    /// The instance kept for `key`, unless it is older than `lifetime` at `now`: then it is taken
    /// out, added to `expired`, and `nil` returned.
    func instance(
        for key: CacheKey, now: Reading?, lifetime: TimeInterval?, of registration: AnyRegistration,
        expired: inout [DiscardedInstance]
    ) -> AnyObject? {
        if let fresh = freshInstance(for: key, now: now, lifetime: lifetime) { return fresh }
        // None, or one that has expired: that one is taken out.
        if let entry = entries.removeValue(forKey: key) {
            expired.append(DiscardedInstance(registration: registration, box: entry.box, sequence: entry.sequence))
        }
        return nil
    }

    /// The instance kept for `key` if it has not expired at `now`, marked used; `nil`, taking
    /// nothing out, if there is none or it has expired: what a resolve reads before the gate, so
    /// that a hit never waits for another value's build.
    func freshInstance(for key: CacheKey, now: Reading?, lifetime: TimeInterval?) -> AnyObject? {
        guard var entry = entries[key] else { return nil }
        if let lifetime, Self.hasExpired(entry, at: now, lifetime: lifetime) { return nil }
        uses &+= 1
        entry.lastUse = uses
        entries[key] = entry
        return entry.box
    }

    private static func hasExpired(_ entry: Entry, at now: Reading?, lifetime: TimeInterval) -> Bool {
        guard let now, let keptAt = entry.keptAt, keptAt.clock === now.clock else { return true }
        return now.time - keptAt.time >= lifetime
    }
    /// Keeps `box` for `key`, as the store's `sequence`-th kept instance, and takes out the least
    /// recently used instances beyond `limit`, adding them to `evicted`.
    func keep(
        _ box: AnyObject, for key: CacheKey, at now: Reading?, sequence: Int, limit: Int?,
        of registration: AnyRegistration, evicted: inout [DiscardedInstance]
    ) {
        uses &+= 1
        entries[key] = Entry(box: box, keptAt: now, sequence: sequence, lastUse: uses)
        guard let limit else { return }
        while entries.count > limit, let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
            entries[oldest.key] = nil
            evicted.append(
                DiscardedInstance(registration: registration, box: oldest.value.box, sequence: oldest.value.sequence))
        }
    }

    /// Takes every instance out, adding them to `discarded`.
    func removeAll(of registration: AnyRegistration, into discarded: inout [DiscardedInstance]) {
        for entry in entries.values {
            discarded.append(DiscardedInstance(registration: registration, box: entry.box, sequence: entry.sequence))
        }
        entries = [:]
    }
}

extension Registration {
    /// What a build needs of the modifiers: the cache policy, and whether a `nil` result is not
    /// to be kept. Marks the registration built, so that a modifier applied from now on traps.
    /// `nil` for a scope with no options (`.weak`).
    func optionsForBuild() -> (caching: CachePolicy?, mayBeNil: Bool)? {
        keptOptions?.withLock { options in
            options.built = true
            return (options.caching, options.mayBeNil)
        }
    }
}

/// Whether `value`, of a type `mayBeNil` said is an `Optional`, is `nil`.
func isNil<T>(_ value: T) -> Bool {
    (value as? any OptionalProtocol)?.isNil ?? false
}

extension DependencyStore {
    /// `buildOnce` for a registration with a cache policy: under the slot's gate, the instance
    /// kept for these arguments unless it has expired, else a new one, kept. What expired, and what
    /// a limit evicted, is closed after the gate is left, as a reset closes it: its close may
    /// resolve the registration again.
    func buildCached<T>(
        _ registration: Registration<T>,
        policy: CachePolicy,
        mayBeNil: Bool,
        in slot: InstanceSlot,
        arguments: GivenArguments,
        on stack: ResolutionStack,
        requester: Requester,
        stage: (some ResolveStage).Type
    ) throws(ResolutionError) -> T {
        let key = policy.perArgument ? Self.cacheKey(of: arguments, for: registration) : []
        let clock = policy.lifetime == nil ? nil : cacheClock()
        // A hit takes the store's lock only, not the gate: it never waits for the build of
        // another argument value, or for a rebuild it does not need.
        let now = clock?.read()
        if let fresh = registry.withLock({ _ in
            slot.cached?.freshInstance(for: key, now: now, lifetime: policy.lifetime)
        }) {
            return Self.instance(fresh, as: T.self, lifetime: .cached)
        }
        try enterGate(of: slot, building: registration, as: T.self, on: stack, requester: requester)
        var expired: [DiscardedInstance] = []
        var evicted: [DiscardedInstance] = []
        let value: T
        do {
            defer { slot.gate.raw.leave() }
            // A clock may be the user's: read with no lock held.
            let now = clock?.read()
            let (found, generation) = registry.withLock { _ in
                (
                    slot.cached?.instance(
                        for: key, now: now, lifetime: policy.lifetime, of: registration, expired: &expired),
                    slot.generation
                )
            }
            if let found {
                value = Self.instance(found, as: T.self, lifetime: .cached)
            } else {
                value = stage.build(registration, in: self, arguments: arguments, on: stack)
                // A `nil` is not kept: the next resolve asks the factory again (see Docs/Lifetimes.md).
                if !mayBeNil || !isNil(value) {
                    // Timed from the keep, not from before the build: a slow fetch gets its whole
                    // lifetime.
                    let now = clock?.read()
                    _ = try keep(
                        value, of: registration, in: slot, builtIn: generation, finishing: nil, requester: requester
                    ) { kept, registry in
                        registry.keptCount &+= 1
                        let cache = slot.cached ?? CachedInstances()
                        slot.cached = cache
                        cache.keep(
                            kept, for: key, at: now, sequence: registry.keptCount, limit: policy.limit,
                            of: registration, evicted: &evicted)
                    }
                }
            }
        }
        let label = Tracing.label(of: registration.type, name: registration.name)
        // A factory that hands out the same object again (`register(Token.shared, for: ...)`) has
        // not replaced it: closing it would close what it has just handed out.
        if !expired.isEmpty, type(of: value as Any) is AnyClass {
            let object = value as AnyObject
            expired.removeAll { ($0.box as! InstanceBox).value(as: T.self) as AnyObject === object }
        }
        if !expired.isEmpty {
            close(expired.closes(), because: "the expiry of \(label) after \(policy.lifetime ?? 0) s")
        }
        if !evicted.isEmpty {
            close(evicted.closes(), because: "the eviction from \(label)'s cache of \(policy.limit ?? 0)")
        }
        return value
    }

    /// The arguments of a resolve as `registration`'s per-argument cache tells them apart: each
    /// value as the `Hashable` type its factory declares (`cachedPerArgument()` checked that
    /// every one is).
    static func cacheKey(of arguments: GivenArguments, for registration: AnyRegistration) -> CacheKey {
        guard case .some(let given) = arguments, let types = registration.argumentTypes else { return [] }
        let values = given.count == 1 ? [given.values] : Mirror(reflecting: given.values).children.map(\.value)
        return zip(types, values).map { type, value in (type as! any Hashable.Type).cacheKey(of: value) }
    }
}

extension Hashable {
    /// `value`, which casts to this type, as a per-argument cache's key.
    fileprivate static func cacheKey(of value: Any) -> AnyHashable {
        AnyHashable(value as! Self)
    }
}

/// An instance that closes what it holds open (a socket, a file, a transaction) when the store
/// that built it lets go of it.
///
/// Adopt it in a type that a store keeps (``Scope/singleton`` or a custom scope), and the store
/// calls ``close()`` once, when the instance's time is over: on `reset` of its scope, when its
/// registration is unregistered, unloaded or registered again, at ``DependencyStore/shutdown(timeout:)``,
/// and when the store itself goes:
///
/// ```swift
/// final class SessionSocket: Closable {
///     private let socket = Socket(host: "chat.example.com")
///
///     func close() {
///         socket.disconnect()
///     }
/// }
///
/// store.register(SessionSocket.self, scope: .session) { _ in SessionSocket() }
/// store.reset(.session)   // closes the socket, then lets go of it
/// ```
///
/// A type that already has a `close() throws` method, like `FileHandle`, adopts it as it is:
/// `extension FileHandle: @retroactive Closable {}`. For a type you cannot change, or to close
/// it in another way, say how where you register it: `.closing { ... }` on what `register`
/// returns (see ``RegistrationEntry``).
///
/// Instances are closed in the reverse order the store built them, so a dependent is closed before
/// what it depends on, each exactly once, and with no lock of the store held: `close()` may
/// resolve from the store. See <doc:Closing>.
///
/// > Important: The store closes only what it owns: the instances it keeps. A ``Scope/unique``
/// > instance belongs to whoever asked for it, and a ``Scope/weak`` one to whoever holds it; the
/// > store never closes those. It owns what it keeps whoever made it, though: a `.singleton`
/// > registration of an object made elsewhere (`register(Journal.shared, for: Journal.self,
/// > scope: .singleton)`) is closed with the store. Register such an object `.unique`, which
/// > keeps nothing.
public protocol Closable {
    /// Closes what the instance holds open. An error it throws is reported (see
    /// ``DependencyStore/onCloseFailure(_:)``), and the store lets go of the instance anyway.
    func close() throws
}

/// An instance whose closing awaits something: a last message to a server, a flush to disk, tasks
/// it started.
///
/// ``DependencyStore/shutdown(timeout:)`` awaits it, up to its deadline:
///
/// ```swift
/// final class UploadQueue: AsyncClosable {
///     private let pending = PendingUploads()
///
///     func close() async throws {
///         try await pending.send()       // what is queued goes out before the app quits
///     }
/// }
///
/// store.register(UploadQueue.self, scope: .singleton) { _ in UploadQueue() }
/// let report = await store.shutdown(timeout: 5)
/// ```
///
/// Where the store cannot await (a `reset`, an `unload`, the store's own end), it starts the close
/// in a task and goes on; the closes still run one at a time, in order, and a later
/// ``DependencyStore/shutdown(timeout:)`` awaits any that are still running. A close whose deadline
/// passes is cancelled: check `Task.isCancelled` (or let a cancelled `Task.sleep` throw) to close
/// at once, the hard way. A `@MainActor` type adopts this protocol, not ``Closable``: its
/// `close()` runs on the main actor.
public protocol AsyncClosable {
    /// Closes what the instance holds open, awaiting what that takes. An error it throws is
    /// reported, and the store lets go of the instance anyway.
    func close() async throws
}

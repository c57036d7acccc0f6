// Registrations whose factories need values only known at the call site (a window, a date, an
// identifier), and the resolves that pass them. One, two and three arguments (four to nine are in
// DependencyStore+ManyArguments.swift), as overloads rather
// than parameter packs: packs in escaping closures need runtime support that older Apple OSes
// lack, and this package supports iOS 13.

extension DependencyStore {
    /// Registers a factory for `type` that needs one value from the caller.
    ///
    /// ```swift
    /// store.register(Greeter.self) { store, name: String in
    ///     Greeter(name: name, clock: store.resolve())
    /// }
    /// let greeter = store.resolve(Greeter.self, arguments: "Ada")
    /// ```
    ///
    /// A resolve must pass a value that casts to the argument's type (a subclass, or a value for
    /// an optional, will do); a resolve with no arguments or the wrong ones traps with the
    /// expected and the given types. With a cached scope, the arguments of the resolve that
    /// builds the instance are the ones it keeps.
    ///
    /// - Parameters:
    ///   - type: The type that callers will ask for.
    ///   - name: Tells apart several registrations of one type; `nil` for the unnamed one.
    ///   - scope: How long a built instance lives; see ``Scope``.
    ///   - fileID: Where the registration is made, for diagnostics. Leave the default.
    ///   - line: The line of the registration. Leave the default.
    ///   - factory: Builds the value from the resolving store and the caller's argument.
    public func register<T, A>(
        _ type: T.Type,
        name: String? = nil,
        scope: Scope = .unique,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping (DependencyStore, A) -> T
    ) {
        add(
            Registration(
                name: name,
                scope: scope,
                location: SourceLocation(fileID: fileID, line: line),
                arguments: ([A.self], { $0 is A }),
                build: { store, given in factory(store, given.values as! A) }
            ))
    }

    /// Registers a factory for `type` that needs two values from the caller.
    ///
    /// ```swift
    /// store.register(Screen.self) { (store, window: Window?, date: Date) in
    ///     Screen(window: window, date: date, fetcher: store.resolve())
    /// }
    /// let screen = store.resolve(Screen.self, arguments: window, Date())
    /// ```
    ///
    /// Arguments are matched as for the one-argument form: each value must cast to its argument's
    /// type, in order.
    ///
    /// - Parameters:
    ///   - type: The type that callers will ask for.
    ///   - name: Tells apart several registrations of one type; `nil` for the unnamed one.
    ///   - scope: How long a built instance lives; see ``Scope``.
    ///   - fileID: Where the registration is made, for diagnostics. Leave the default.
    ///   - line: The line of the registration. Leave the default.
    ///   - factory: Builds the value from the resolving store and the caller's arguments.
    public func register<T, A1, A2>(
        _ type: T.Type,
        name: String? = nil,
        scope: Scope = .unique,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping (DependencyStore, A1, A2) -> T
    ) {
        add(
            Registration(
                name: name,
                scope: scope,
                location: SourceLocation(fileID: fileID, line: line),
                arguments: ([A1.self, A2.self], { $0 is (A1, A2) }),
                build: { store, given in
                    let (a1, a2) = given.values as! (A1, A2)
                    return factory(store, a1, a2)
                }
            ))
    }

    /// Registers a factory for `type` that needs three values from the caller.
    ///
    /// ```swift
    /// store.register(Receipt.self) { (store, order: Order, date: Date, note: String?) in
    ///     Receipt(order: order, date: date, note: note, formatter: store.resolve())
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - type: The type that callers will ask for.
    ///   - name: Tells apart several registrations of one type; `nil` for the unnamed one.
    ///   - scope: How long a built instance lives; see ``Scope``.
    ///   - fileID: Where the registration is made, for diagnostics. Leave the default.
    ///   - line: The line of the registration. Leave the default.
    ///   - factory: Builds the value from the resolving store and the caller's arguments.
    public func register<T, A1, A2, A3>(
        _ type: T.Type,
        name: String? = nil,
        scope: Scope = .unique,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping (DependencyStore, A1, A2, A3) -> T
    ) {
        add(
            Registration(
                name: name,
                scope: scope,
                location: SourceLocation(fileID: fileID, line: line),
                arguments: ([A1.self, A2.self, A3.self], { $0 is (A1, A2, A3) }),
                build: { store, given in
                    let (a1, a2, a3) = given.values as! (A1, A2, A3)
                    return factory(store, a1, a2, a3)
                }
            ))
    }

    /// Builds the dependency registered for `type` with a factory that takes one argument.
    ///
    /// ```swift
    /// let greeter = store.resolve(Greeter.self, arguments: "Ada")
    /// ```
    ///
    /// > Important: Arguments that do not cast to the factory's traps with the expected and the
    /// > given types; so does a registration without arguments.
    ///
    /// - Parameters:
    ///   - type: The type that was registered.
    ///   - name: The name it was registered under; `nil` for the unnamed one.
    ///   - argument: The value the factory needs.
    ///   - fileID: The caller's file, for diagnostics. Leave the default.
    ///   - line: The caller's line, for diagnostics. Leave the default.
    /// - Returns: What the registration's factory built.
    public func resolve<T, A>(
        _ type: T.Type = T.self,
        name: String? = nil,
        arguments argument: A,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) -> T {
        resolve(
            type, name: name, arguments: .some(values: argument, types: A.self, count: 1),
            requester: .call(SourceLocation(fileID: fileID, line: line)))
    }

    /// Builds the dependency registered for `type` with a factory that takes two arguments.
    ///
    /// ```swift
    /// let screen = store.resolve(Screen.self, arguments: window, Date())
    /// ```
    ///
    /// > Important: Arguments that do not cast to the factory's, in order, trap with the expected
    /// > and the given types.
    ///
    /// - Parameters:
    ///   - type: The type that was registered.
    ///   - name: The name it was registered under; `nil` for the unnamed one.
    ///   - first: The factory's first argument.
    ///   - second: The factory's second argument.
    ///   - fileID: The caller's file, for diagnostics. Leave the default.
    ///   - line: The caller's line, for diagnostics. Leave the default.
    /// - Returns: What the registration's factory built.
    public func resolve<T, A1, A2>(
        _ type: T.Type = T.self,
        name: String? = nil,
        arguments first: A1,
        _ second: A2,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) -> T {
        resolve(
            type, name: name, arguments: .some(values: (first, second), types: (A1, A2).self, count: 2),
            requester: .call(SourceLocation(fileID: fileID, line: line)))
    }

    /// Builds the dependency registered for `type` with a factory that takes three arguments.
    ///
    /// ```swift
    /// let receipt = store.resolve(Receipt.self, arguments: order, Date(), nil as String?)
    /// ```
    ///
    /// > Important: Arguments that do not cast to the factory's, in order, trap with the expected
    /// > and the given types.
    ///
    /// - Parameters:
    ///   - type: The type that was registered.
    ///   - name: The name it was registered under; `nil` for the unnamed one.
    ///   - first: The factory's first argument.
    ///   - second: The factory's second argument.
    ///   - third: The factory's third argument.
    ///   - fileID: The caller's file, for diagnostics. Leave the default.
    ///   - line: The caller's line, for diagnostics. Leave the default.
    /// - Returns: What the registration's factory built.
    public func resolve<T, A1, A2, A3>(
        _ type: T.Type = T.self,
        name: String? = nil,
        arguments first: A1,
        _ second: A2,
        _ third: A3,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) -> T {
        resolve(
            type, name: name, arguments: .some(values: (first, second, third), types: (A1, A2, A3).self, count: 3),
            requester: .call(SourceLocation(fileID: fileID, line: line)))
    }
}

// Registrations and resolves with four to nine arguments, as Swinject offers: screens and requests
// often need four or five values from the call site. One overload per count, like the one to three
// of DependencyStore+Arguments.swift and for the same reason: parameter packs in escaping closures,
// and the tuples of them, need runtime support that iOS 13 to 16 lack.

extension DependencyStore {
    /// Registers a factory for `type` that needs four values from the caller, in order.
    ///
    /// Like the one-argument `register(_:name:scope:fileID:line:factory:)`: a resolve passes
    /// values that cast to these types, in this order, or traps with the expected and the given
    /// types.
    ///
    /// ```swift
    /// store.register(CheckoutModel.self) { (store, cart: Cart, user: User, coupon: String?, locale: Locale) in
    ///     CheckoutModel(cart: cart, user: user, coupon: coupon, locale: locale, payments: store.resolve())
    /// }
    /// let model = store.resolve(CheckoutModel.self, arguments: cart, user, nil as String?, Locale.current)
    /// ```
    ///
    /// - Parameters:
    ///   - type: The type that callers will ask for, usually a protocol.
    ///   - name: Tells apart several registrations of one type. `nil`, the default, is the
    ///     registration that a resolve without a name finds.
    ///   - scope: How long a built instance lives; see ``Scope``.
    ///   - fileID: Where the registration is made, for diagnostics. Leave the default.
    ///   - line: The line of the registration. Leave the default.
    ///   - factory: Builds the value from the store and the four arguments.
    public func register<T, A1, A2, A3, A4>(
        _ type: T.Type,
        name: String? = nil,
        scope: Scope = .unique,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping (DependencyStore, A1, A2, A3, A4) -> T
    ) {
        add(
            Registration(
                name: name,
                scope: scope,
                location: SourceLocation(fileID: fileID, line: line),
                arguments: ([A1.self, A2.self, A3.self, A4.self], { $0 is (A1, A2, A3, A4) }),
                build: { store, given in
                    let (a1, a2, a3, a4) = given.values as! (A1, A2, A3, A4)
                    return factory(store, a1, a2, a3, a4)
                }
            ))
    }

    /// Registers a factory for `type` that needs five values from the caller, in order.
    ///
    /// Like the one-argument `register(_:name:scope:fileID:line:factory:)`: a resolve passes
    /// values that cast to these types, in this order, or traps with the expected and the given
    /// types.
    ///
    /// ```swift
    /// store.register(CheckoutModel.self) { (store, cart: Cart, user: User, coupon: String?, locale: Locale) in
    ///     CheckoutModel(cart: cart, user: user, coupon: coupon, locale: locale, payments: store.resolve())
    /// }
    /// let model = store.resolve(CheckoutModel.self, arguments: cart, user, nil as String?, Locale.current)
    /// ```
    ///
    /// - Parameters:
    ///   - type: The type that callers will ask for, usually a protocol.
    ///   - name: Tells apart several registrations of one type. `nil`, the default, is the
    ///     registration that a resolve without a name finds.
    ///   - scope: How long a built instance lives; see ``Scope``.
    ///   - fileID: Where the registration is made, for diagnostics. Leave the default.
    ///   - line: The line of the registration. Leave the default.
    ///   - factory: Builds the value from the store and the five arguments.
    public func register<T, A1, A2, A3, A4, A5>(
        _ type: T.Type,
        name: String? = nil,
        scope: Scope = .unique,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping (DependencyStore, A1, A2, A3, A4, A5) -> T
    ) {
        add(
            Registration(
                name: name,
                scope: scope,
                location: SourceLocation(fileID: fileID, line: line),
                arguments: ([A1.self, A2.self, A3.self, A4.self, A5.self], { $0 is (A1, A2, A3, A4, A5) }),
                build: { store, given in
                    let (a1, a2, a3, a4, a5) = given.values as! (A1, A2, A3, A4, A5)
                    return factory(store, a1, a2, a3, a4, a5)
                }
            ))
    }

    /// Registers a factory for `type` that needs six values from the caller, in order.
    ///
    /// Like the one-argument `register(_:name:scope:fileID:line:factory:)`: a resolve passes
    /// values that cast to these types, in this order, or traps with the expected and the given
    /// types.
    ///
    /// ```swift
    /// store.register(CheckoutModel.self) { (store, cart: Cart, user: User, coupon: String?, locale: Locale) in
    ///     CheckoutModel(cart: cart, user: user, coupon: coupon, locale: locale, payments: store.resolve())
    /// }
    /// let model = store.resolve(CheckoutModel.self, arguments: cart, user, nil as String?, Locale.current)
    /// ```
    ///
    /// - Parameters:
    ///   - type: The type that callers will ask for, usually a protocol.
    ///   - name: Tells apart several registrations of one type. `nil`, the default, is the
    ///     registration that a resolve without a name finds.
    ///   - scope: How long a built instance lives; see ``Scope``.
    ///   - fileID: Where the registration is made, for diagnostics. Leave the default.
    ///   - line: The line of the registration. Leave the default.
    ///   - factory: Builds the value from the store and the six arguments.
    public func register<T, A1, A2, A3, A4, A5, A6>(
        _ type: T.Type,
        name: String? = nil,
        scope: Scope = .unique,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping (DependencyStore, A1, A2, A3, A4, A5, A6) -> T
    ) {
        add(
            Registration(
                name: name,
                scope: scope,
                location: SourceLocation(fileID: fileID, line: line),
                arguments: (
                    [A1.self, A2.self, A3.self, A4.self, A5.self, A6.self], { $0 is (A1, A2, A3, A4, A5, A6) }
                ),
                build: { store, given in
                    let (a1, a2, a3, a4, a5, a6) = given.values as! (A1, A2, A3, A4, A5, A6)
                    return factory(store, a1, a2, a3, a4, a5, a6)
                }
            ))
    }

    /// Registers a factory for `type` that needs seven values from the caller, in order.
    ///
    /// Like the one-argument `register(_:name:scope:fileID:line:factory:)`: a resolve passes
    /// values that cast to these types, in this order, or traps with the expected and the given
    /// types.
    ///
    /// ```swift
    /// store.register(CheckoutModel.self) { (store, cart: Cart, user: User, coupon: String?, locale: Locale) in
    ///     CheckoutModel(cart: cart, user: user, coupon: coupon, locale: locale, payments: store.resolve())
    /// }
    /// let model = store.resolve(CheckoutModel.self, arguments: cart, user, nil as String?, Locale.current)
    /// ```
    ///
    /// - Parameters:
    ///   - type: The type that callers will ask for, usually a protocol.
    ///   - name: Tells apart several registrations of one type. `nil`, the default, is the
    ///     registration that a resolve without a name finds.
    ///   - scope: How long a built instance lives; see ``Scope``.
    ///   - fileID: Where the registration is made, for diagnostics. Leave the default.
    ///   - line: The line of the registration. Leave the default.
    ///   - factory: Builds the value from the store and the seven arguments.
    public func register<T, A1, A2, A3, A4, A5, A6, A7>(
        _ type: T.Type,
        name: String? = nil,
        scope: Scope = .unique,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping (DependencyStore, A1, A2, A3, A4, A5, A6, A7) -> T
    ) {
        add(
            Registration(
                name: name,
                scope: scope,
                location: SourceLocation(fileID: fileID, line: line),
                arguments: (
                    [A1.self, A2.self, A3.self, A4.self, A5.self, A6.self, A7.self],
                    { $0 is (A1, A2, A3, A4, A5, A6, A7) }
                ),
                build: { store, given in
                    let (a1, a2, a3, a4, a5, a6, a7) = given.values as! (A1, A2, A3, A4, A5, A6, A7)
                    return factory(store, a1, a2, a3, a4, a5, a6, a7)
                }
            ))
    }

    /// Registers a factory for `type` that needs eight values from the caller, in order.
    ///
    /// Like the one-argument `register(_:name:scope:fileID:line:factory:)`: a resolve passes
    /// values that cast to these types, in this order, or traps with the expected and the given
    /// types.
    ///
    /// ```swift
    /// store.register(CheckoutModel.self) { (store, cart: Cart, user: User, coupon: String?, locale: Locale) in
    ///     CheckoutModel(cart: cart, user: user, coupon: coupon, locale: locale, payments: store.resolve())
    /// }
    /// let model = store.resolve(CheckoutModel.self, arguments: cart, user, nil as String?, Locale.current)
    /// ```
    ///
    /// - Parameters:
    ///   - type: The type that callers will ask for, usually a protocol.
    ///   - name: Tells apart several registrations of one type. `nil`, the default, is the
    ///     registration that a resolve without a name finds.
    ///   - scope: How long a built instance lives; see ``Scope``.
    ///   - fileID: Where the registration is made, for diagnostics. Leave the default.
    ///   - line: The line of the registration. Leave the default.
    ///   - factory: Builds the value from the store and the eight arguments.
    public func register<T, A1, A2, A3, A4, A5, A6, A7, A8>(
        _ type: T.Type,
        name: String? = nil,
        scope: Scope = .unique,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping (DependencyStore, A1, A2, A3, A4, A5, A6, A7, A8) -> T
    ) {
        add(
            Registration(
                name: name,
                scope: scope,
                location: SourceLocation(fileID: fileID, line: line),
                arguments: (
                    [A1.self, A2.self, A3.self, A4.self, A5.self, A6.self, A7.self, A8.self],
                    { $0 is (A1, A2, A3, A4, A5, A6, A7, A8) }
                ),
                build: { store, given in
                    let (a1, a2, a3, a4, a5, a6, a7, a8) = given.values as! (A1, A2, A3, A4, A5, A6, A7, A8)
                    return factory(store, a1, a2, a3, a4, a5, a6, a7, a8)
                }
            ))
    }

    /// Registers a factory for `type` that needs nine values from the caller, in order.
    ///
    /// Like the one-argument `register(_:name:scope:fileID:line:factory:)`: a resolve passes
    /// values that cast to these types, in this order, or traps with the expected and the given
    /// types.
    ///
    /// ```swift
    /// store.register(CheckoutModel.self) { (store, cart: Cart, user: User, coupon: String?, locale: Locale) in
    ///     CheckoutModel(cart: cart, user: user, coupon: coupon, locale: locale, payments: store.resolve())
    /// }
    /// let model = store.resolve(CheckoutModel.self, arguments: cart, user, nil as String?, Locale.current)
    /// ```
    ///
    /// - Parameters:
    ///   - type: The type that callers will ask for, usually a protocol.
    ///   - name: Tells apart several registrations of one type. `nil`, the default, is the
    ///     registration that a resolve without a name finds.
    ///   - scope: How long a built instance lives; see ``Scope``.
    ///   - fileID: Where the registration is made, for diagnostics. Leave the default.
    ///   - line: The line of the registration. Leave the default.
    ///   - factory: Builds the value from the store and the nine arguments.
    public func register<T, A1, A2, A3, A4, A5, A6, A7, A8, A9>(
        _ type: T.Type,
        name: String? = nil,
        scope: Scope = .unique,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        factory: @escaping (DependencyStore, A1, A2, A3, A4, A5, A6, A7, A8, A9) -> T
    ) {
        add(
            Registration(
                name: name,
                scope: scope,
                location: SourceLocation(fileID: fileID, line: line),
                arguments: (
                    [A1.self, A2.self, A3.self, A4.self, A5.self, A6.self, A7.self, A8.self, A9.self],
                    { $0 is (A1, A2, A3, A4, A5, A6, A7, A8, A9) }
                ),
                build: { store, given in
                    let (a1, a2, a3, a4, a5, a6, a7, a8, a9) = given.values as! (A1, A2, A3, A4, A5, A6, A7, A8, A9)
                    return factory(store, a1, a2, a3, a4, a5, a6, a7, a8, a9)
                }
            ))
    }

    /// Builds the dependency registered for `type` with a factory that takes four arguments.
    ///
    /// > Important: Arguments that do not cast to the factory's, in order, trap with the expected
    /// > and the given types.
    ///
    /// - Parameters:
    ///   - type: The type that was registered.
    ///   - name: The name it was registered under; `nil` for the unnamed one.
    ///   - a1: The factory's first argument.
    ///   - a2: The factory's second argument.
    ///   - a3: The factory's third argument.
    ///   - a4: The factory's fourth argument.
    ///   - fileID: The caller's file, for diagnostics. Leave the default.
    ///   - line: The caller's line, for diagnostics. Leave the default.
    /// - Returns: What the registration's factory built.
    public func resolve<T, A1, A2, A3, A4>(
        _ type: T.Type = T.self,
        name: String? = nil,
        arguments a1: A1,
        _ a2: A2,
        _ a3: A3,
        _ a4: A4,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) -> T {
        resolve(
            type, name: name, arguments: .some(values: (a1, a2, a3, a4), types: (A1, A2, A3, A4).self, count: 4),
            requester: .call(SourceLocation(fileID: fileID, line: line)))
    }

    /// Builds the dependency registered for `type` with a factory that takes five arguments.
    ///
    /// > Important: Arguments that do not cast to the factory's, in order, trap with the expected
    /// > and the given types.
    ///
    /// - Parameters:
    ///   - type: The type that was registered.
    ///   - name: The name it was registered under; `nil` for the unnamed one.
    ///   - a1: The factory's first argument.
    ///   - a2: The factory's second argument.
    ///   - a3: The factory's third argument.
    ///   - a4: The factory's fourth argument.
    ///   - a5: The factory's fifth argument.
    ///   - fileID: The caller's file, for diagnostics. Leave the default.
    ///   - line: The caller's line, for diagnostics. Leave the default.
    /// - Returns: What the registration's factory built.
    public func resolve<T, A1, A2, A3, A4, A5>(
        _ type: T.Type = T.self,
        name: String? = nil,
        arguments a1: A1,
        _ a2: A2,
        _ a3: A3,
        _ a4: A4,
        _ a5: A5,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) -> T {
        resolve(
            type, name: name,
            arguments: .some(values: (a1, a2, a3, a4, a5), types: (A1, A2, A3, A4, A5).self, count: 5),
            requester: .call(SourceLocation(fileID: fileID, line: line)))
    }

    /// Builds the dependency registered for `type` with a factory that takes six arguments.
    ///
    /// > Important: Arguments that do not cast to the factory's, in order, trap with the expected
    /// > and the given types.
    ///
    /// - Parameters:
    ///   - type: The type that was registered.
    ///   - name: The name it was registered under; `nil` for the unnamed one.
    ///   - a1: The factory's first argument.
    ///   - a2: The factory's second argument.
    ///   - a3: The factory's third argument.
    ///   - a4: The factory's fourth argument.
    ///   - a5: The factory's fifth argument.
    ///   - a6: The factory's sixth argument.
    ///   - fileID: The caller's file, for diagnostics. Leave the default.
    ///   - line: The caller's line, for diagnostics. Leave the default.
    /// - Returns: What the registration's factory built.
    public func resolve<T, A1, A2, A3, A4, A5, A6>(
        _ type: T.Type = T.self,
        name: String? = nil,
        arguments a1: A1,
        _ a2: A2,
        _ a3: A3,
        _ a4: A4,
        _ a5: A5,
        _ a6: A6,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) -> T {
        resolve(
            type, name: name,
            arguments: .some(values: (a1, a2, a3, a4, a5, a6), types: (A1, A2, A3, A4, A5, A6).self, count: 6),
            requester: .call(SourceLocation(fileID: fileID, line: line)))
    }

    /// Builds the dependency registered for `type` with a factory that takes seven arguments.
    ///
    /// > Important: Arguments that do not cast to the factory's, in order, trap with the expected
    /// > and the given types.
    ///
    /// - Parameters:
    ///   - type: The type that was registered.
    ///   - name: The name it was registered under; `nil` for the unnamed one.
    ///   - a1: The factory's first argument.
    ///   - a2: The factory's second argument.
    ///   - a3: The factory's third argument.
    ///   - a4: The factory's fourth argument.
    ///   - a5: The factory's fifth argument.
    ///   - a6: The factory's sixth argument.
    ///   - a7: The factory's seventh argument.
    ///   - fileID: The caller's file, for diagnostics. Leave the default.
    ///   - line: The caller's line, for diagnostics. Leave the default.
    /// - Returns: What the registration's factory built.
    public func resolve<T, A1, A2, A3, A4, A5, A6, A7>(
        _ type: T.Type = T.self,
        name: String? = nil,
        arguments a1: A1,
        _ a2: A2,
        _ a3: A3,
        _ a4: A4,
        _ a5: A5,
        _ a6: A6,
        _ a7: A7,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) -> T {
        resolve(
            type, name: name,
            arguments: .some(values: (a1, a2, a3, a4, a5, a6, a7), types: (A1, A2, A3, A4, A5, A6, A7).self, count: 7),
            requester: .call(SourceLocation(fileID: fileID, line: line)))
    }

    /// Builds the dependency registered for `type` with a factory that takes eight arguments.
    ///
    /// > Important: Arguments that do not cast to the factory's, in order, trap with the expected
    /// > and the given types.
    ///
    /// - Parameters:
    ///   - type: The type that was registered.
    ///   - name: The name it was registered under; `nil` for the unnamed one.
    ///   - a1: The factory's first argument.
    ///   - a2: The factory's second argument.
    ///   - a3: The factory's third argument.
    ///   - a4: The factory's fourth argument.
    ///   - a5: The factory's fifth argument.
    ///   - a6: The factory's sixth argument.
    ///   - a7: The factory's seventh argument.
    ///   - a8: The factory's eighth argument.
    ///   - fileID: The caller's file, for diagnostics. Leave the default.
    ///   - line: The caller's line, for diagnostics. Leave the default.
    /// - Returns: What the registration's factory built.
    public func resolve<T, A1, A2, A3, A4, A5, A6, A7, A8>(
        _ type: T.Type = T.self,
        name: String? = nil,
        arguments a1: A1,
        _ a2: A2,
        _ a3: A3,
        _ a4: A4,
        _ a5: A5,
        _ a6: A6,
        _ a7: A7,
        _ a8: A8,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) -> T {
        resolve(
            type, name: name,
            arguments: .some(
                values: (a1, a2, a3, a4, a5, a6, a7, a8), types: (A1, A2, A3, A4, A5, A6, A7, A8).self, count: 8),
            requester: .call(SourceLocation(fileID: fileID, line: line)))
    }

    /// Builds the dependency registered for `type` with a factory that takes nine arguments.
    ///
    /// > Important: Arguments that do not cast to the factory's, in order, trap with the expected
    /// > and the given types.
    ///
    /// - Parameters:
    ///   - type: The type that was registered.
    ///   - name: The name it was registered under; `nil` for the unnamed one.
    ///   - a1: The factory's first argument.
    ///   - a2: The factory's second argument.
    ///   - a3: The factory's third argument.
    ///   - a4: The factory's fourth argument.
    ///   - a5: The factory's fifth argument.
    ///   - a6: The factory's sixth argument.
    ///   - a7: The factory's seventh argument.
    ///   - a8: The factory's eighth argument.
    ///   - a9: The factory's ninth argument.
    ///   - fileID: The caller's file, for diagnostics. Leave the default.
    ///   - line: The caller's line, for diagnostics. Leave the default.
    /// - Returns: What the registration's factory built.
    public func resolve<T, A1, A2, A3, A4, A5, A6, A7, A8, A9>(
        _ type: T.Type = T.self,
        name: String? = nil,
        arguments a1: A1,
        _ a2: A2,
        _ a3: A3,
        _ a4: A4,
        _ a5: A5,
        _ a6: A6,
        _ a7: A7,
        _ a8: A8,
        _ a9: A9,
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) -> T {
        resolve(
            type, name: name,
            arguments: .some(
                values: (a1, a2, a3, a4, a5, a6, a7, a8, a9), types: (A1, A2, A3, A4, A5, A6, A7, A8, A9).self, count: 9
            ),
            requester: .call(SourceLocation(fileID: fileID, line: line)))
    }

}

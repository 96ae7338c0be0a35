// Explicit keys are string literals. These overloads exist only so that a key made at run time —
// `define(withKey: "user-\(id)")` — fails to compile with a message that shows the way, instead of
// "cannot convert value of type 'String' to expected argument type 'StaticString'". Being
// unavailable, they are never chosen while an available overload fits: a literal key still picks
// the `StaticString` one.

extension Assembly {
    /// Unavailable: an explicit key is a string literal. Pass values known only at run time as
    /// `arguments:` — `define(withKey: "user", arguments: id) { ... }`.
    @available(
        *,
        unavailable,
        message: """
            withKey: takes a string literal, fixed when the program is compiled. For a key known only \
            at run time, keep a literal key and pass the values as arguments, which are part of the \
            key: define(withKey: "user", arguments: id) { ... }
            """
    )
    public final func define<T>(
        withKey key: String,
        scope: Scope = .objectGraph,
        _ body: (Definition<T>) -> T
    ) -> T {
        fatalError()
    }

    /// Unavailable: an explicit key is a string literal. Pass values known only at run time as
    /// `arguments:` — `define(withKey: "user", arguments: id) { ... }`.
    @available(
        *,
        unavailable,
        message: """
            withKey: takes a string literal, fixed when the program is compiled. For a key known only \
            at run time, keep a literal key and pass the values as arguments, which are part of the \
            key: define(withKey: "user", arguments: id) { ... }
            """
    )
    public final func define<T>(withKey key: String, scope: Scope = .objectGraph, _ body: () -> T) -> T {
        fatalError()
    }

    /// Unavailable: an explicit key is a string literal. Pass values known only at run time as
    /// `arguments:` — `define(withKey: "user", arguments: id) { ... }`.
    @available(
        *,
        unavailable,
        message: """
            withKey: takes a string literal, fixed when the program is compiled. For a key known only \
            at run time, keep a literal key and pass the values as arguments, which are part of the \
            key: define(withKey: "user", arguments: id) { ... }
            """
    )
    public final func define<T, each Argument: Hashable>(
        withKey key: String,
        scope: Scope = .objectGraph,
        arguments: repeat each Argument,
        function: StaticString = #function,
        _ body: () -> T
    ) -> T {
        fatalError()
    }

    /// Unavailable: an explicit key is a string literal. Pass values known only at run time as
    /// `arguments:` — `define(withKey: "user", arguments: id) { ... }`.
    @available(
        *,
        unavailable,
        message: """
            withKey: takes a string literal, fixed when the program is compiled. For a key known only \
            at run time, keep a literal key and pass the values as arguments, which are part of the \
            key: define(withKey: "user", arguments: id) { ... }
            """
    )
    public final func define<T, each Argument: Hashable>(
        withKey key: String,
        scope: Scope = .objectGraph,
        arguments: repeat each Argument,
        function: StaticString = #function,
        _ body: (Definition<T>) -> T
    ) -> T {
        fatalError()
    }

    /// Unavailable: an explicit key is a string literal, and the object is found under the literal
    /// given to `define(withKey:)`.
    @available(
        *,
        unavailable,
        message: """
            withKey: takes a string literal, fixed when the program is compiled. For a key known only \
            at run time, keep a literal key and pass the values as arguments, which are part of the \
            key: define(withKey: "user", arguments: id) { ... }
            """
    )
    public final func existingObject<T>(withKey key: String) -> T? {
        fatalError()
    }
}

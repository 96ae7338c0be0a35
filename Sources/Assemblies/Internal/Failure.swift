internal import CAssemblies

/// The messages with which misuse stops the program.
///
/// Each says what happened, names the definitions involved as `AssemblyType.member` (the chain, for
/// a cycle) and ends with how to fix it, the way the standard library traps.
@usableFromInline
enum Failure {
    static func stop(_ message: String, file: StaticString = #fileID, line: UInt = #line) -> Never {
        if let lane = assemblies_lane(), #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
            // A wiring check's read: reported to the check, whose thread parks.
            Unmanaged<WiringLane>.fromOpaque(lane).takeUnretainedValue().stop(message)
        }
        // Printed as "Assemblies/Failure.swift:N: Fatal error: <message>", like the standard library's traps.
        fatalError(message, file: file, line: line)
    }

    static func describe(_ chain: [DefinitionKey]) -> String {
        chain.map(\.description).joined(separator: " → ")
    }

    static func initializerCycle(_ chain: [DefinitionKey]) -> Never {
        let first = chain[0].description
        let second = chain.count > 2 ? chain[1].description : first
        stop(
            """
            circular dependency, read again before it was registered: \(describe(chain)). \
            \(first) was read again before its definition registered an instance with `definition *~>` \
            — its body was still computing an initializer's arguments, or read \(second) before \
            registering — so no instance exists yet to hand back. To fix this, register the instance \
            before reading \(second): `let instance = definition *~> Type(...)`, then set the property \
            that points back; or, when an initializer needs \(second), pass the back-reference in later \
            instead.
            """
        )
    }

    static func crossFamilyCycle(_ chain: [DefinitionKey]) -> Never {
        stop(
            """
            a resolution crossed between families of assemblies \(chain.count) times without \
            returning: \(describe(Array(chain.prefix(8)))) → …. Each family resolves in a graph of \
            its own, so a cycle through assemblies of different families can't close. To fix this, \
            reach the other assembly with `collaborator()` so that both belong to one family, or \
            break the cycle.
            """
        )
    }

    static func stackExhausted(
        depth: Int,
        first: DefinitionKey,
        last: DefinitionKey,
        repeated: (member: String, count: Int)?
    ) -> Never {
        let repetition =
            repeated.map { $0.count > 1 ? " \($0.member) was read \($0.count) times in it." : "" } ?? ""
        stop(
            """
            a resolution is \(depth) definitions deep, and the thread's stack is nearly used up: it \
            began with \(first.description) and has reached \(last.description).\(repetition) The likely \
            cause is a recursion through a method with arguments that doesn't end: each call has new \
            argument values, so it is a new definition rather than a cycle. To fix this, make the \
            recursion end (check its arguments before reading the next level), or, for a graph that \
            really is this deep, resolve it on a thread with a bigger stack.
            """
        )
    }

    static func prototypeCycle(_ chain: [DefinitionKey]) -> Never {
        stop(
            """
            circular dependency made only of prototypes: \(describe(chain)). \
            Each read of a prototype builds a new instance, so this cycle would build instances \
            forever. To fix this, give one of these definitions the .objectGraph or .singleton \
            scope so the cycle closes on a shared instance.
            """
        )
    }

    static func explicitKeyTypeMismatch(_ key: DefinitionKey, first: DefinitionKey) -> Never {
        stop(
            """
            the key "\(key.nameDescription)" is used for two types: \(first.description) defines it as \
            \(first.type), and \(key.description) reads it as \(key.type). An explicit key names one \
            slot for the whole family of assemblies. To fix this, give one of the definitions a \
            different key.
            """
        )
    }

    static func explicitKeyScopeMismatch(
        _ key: DefinitionKey,
        first: DefinitionKey,
        firstScope: Scope.Kind,
        scope: Scope.Kind
    ) -> Never {
        stop(
            """
            the key "\(key.nameDescription)" is used with two scopes: \(first.description) defines it as \
            .\(Scope(firstScope)) and \(key.description) as .\(Scope(scope)). An explicit key names \
            one slot for the whole family of assemblies. To fix this, use the same scope or a \
            different key.
            """
        )
    }

    static func storedKeyScopeMismatch(
        _ key: DefinitionKey,
        first: DefinitionKey,
        firstScope: Scope,
        scope: Scope
    ) -> Never {
        let named = key.isExplicit ? "the key \"\(key.nameDescription)\"" : key.description
        stop(
            """
            \(named) is used with two scopes: \(first.description) keeps it as .\(firstScope) and \
            \(key.description) reads it as .\(scope). One slot can't belong to two scopes: the family \
            would keep it for two different lifetimes. To fix this, use the same scope for it \
            everywhere, or a different key.
            """
        )
    }

    static func methodReadTwice(_ key: DefinitionKey) -> Never {
        stop(
            """
            \(key.description) was read twice in one object graph, but it is a method with \
            parameters and its key can't tell the calls apart, so the second call would get the \
            first call's instance. To fix this, make the parameters part of the key: \
            `define(arguments: name, count) { ... }` for values, `define(injecting: object)` when \
            the method wires an object passed in; or use `scope: .prototype`.
            """
        )
    }

    static func singletonMethodWithParameters(_ key: DefinitionKey, scope: Scope) -> Never {
        stop(
            """
            \(key.description) is defined with scope .\(scope) in a method with parameters, but \
            its key can't tell the calls apart, so every later call would get the first call's \
            instance. To fix this, make the parameters part of the key with \
            `define(scope: .\(scope), arguments: name, count) { ... }` (one instance per argument \
            value), or define it in a property.
            """
        )
    }

    static func weakSingletonOfValue(_ key: DefinitionKey) -> Never {
        stop(
            """
            \(key.description) is a .weakSingleton of \(key.type), which is not a class: only an \
            object can be held weakly. To fix this, use .singleton, or define a class.
            """
        )
    }

    static func notADefinition(_ root: Any.Type, _ value: Any.Type) -> Never {
        stop(
            """
            an override's key path (or closure) from \(root) to \(value) reads no definition: the \
            member it ends with never calls `define`. To fix this, name a property whose getter is \
            `define { ... }`; to replace a collaborator, use \
            `overrides.replace(CollaboratorAssembly.self, with: Subclass.self)`.
            """
        )
    }

    static func keyPathIsNotTheDefinition(_ key: DefinitionKey, value: Any.Type) -> Never {
        stop(
            """
            an override's double is a \(value), but the key path's member reads \(key.description) \
            as \(key.type), so the double can't stand in for it. Either the member transforms the \
            definition's instance — then override \(key.description) through a key path that \
            returns it unchanged — or the definition's body returns a concrete type where the \
            property's type is a protocol: Swift then infers the definition's type from the body. \
            To fix that, say the type in the body: `define { Live() as any Service }`.
            """
        )
    }

    static func readAfterRootReleased(_ key: DefinitionKey, root: Assembly.Type) -> Never {
        stop(
            """
            \(key.description) was read after the root of its family, \(root), was released: the family \
            has let go of its assemblies, and its singletons go once nothing holds them. A family lives \
            as long as its root; this read reached it through something kept beyond the root — a \
            collaborator, or a closure that captured one. To fix this, keep the \(root) you created for as \
            long as you read from its family; an object that needs new instances after it is built keeps \
            a provider (`provider(\\.member)`), which doesn't keep the family alive.
            """
        )
    }

    static func readAfterShutdownBegan(_ key: DefinitionKey, root: Assembly.Type) -> Never {
        stop(
            """
            \(key.description) was read after its family began to shut down (\(root).shutDown()): a \
            family that shuts down finishes the reads already running, and refuses new ones. To fix \
            this, stop what reads the family before shutting it down — in a server, let the HTTP \
            server finish its requests first (a ServiceGroup of swift-service-lifecycle shuts its \
            services down in the reverse order of the list it was given).
            """
        )
    }

    static func shutdownInsideARead(_ root: Assembly.Type) -> Never {
        stop(
            """
            shutDown() was called inside a read of the family of \(root), from a definition body or a \
            hook: the shutdown waits for the instances being built, and this read is building one, \
            so neither could finish. To fix this, shut the family down from outside its reads — from \
            the code that started the server, or a service of a ServiceGroup.
            """
        )
    }

    static func buildAfterShutdown(_ key: DefinitionKey) -> Never {
        stop(
            """
            \(key.description) was built after its family had shut down: a read that was running when \
            shutDown() began went on after it had finished, and read a stored instance no one had \
            built yet. To fix this, let the reads of the family finish before shutting it down.
            """
        )
    }

    static func shutdownOfUnstoredInstance(_ key: DefinitionKey, scope: Scope.Kind) -> Never {
        let scopeName = Scope(scope).description
        stop(
            """
            \(key.description) (\(scopeName)) declares a shutdown with onShutdown, but the family keeps \
            only its singletons and the instances of its resettable scopes until it shuts down: \
            an instance of .\(scopeName) belongs to whoever reads it. To fix this, give \
            \(key.description) the .singleton scope or a resettable one, or shut the instance down \
            where the code that reads it is done with it.
            """
        )
    }

    static func noGraphArgument(_ type: Any.Type, reader: Assembly.Type, carried: [String]) -> Never {
        let found =
            carried.isEmpty
            ? "the graph being built carries no argument"
            : "the graph being built carries \(carried.joined(separator: ", ")) only"
        stop(
            """
            \(reader).graphArgument(\(type).self) was read, but \(found). A graph carries the values of \
            the provider call that opened it — `provider(\\.member, carrying: \(type).self)` — and \
            nothing else does. To fix this, read this member through such a provider; in a test that \
            reads it directly, replace the definition that reads the argument with `Overrides`.
            """
        )
    }

    static func graphArgumentReadByStoredInstance(_ chain: [DefinitionKey]) -> Never {
        stop(
            """
            \(chain[0].description) would keep a graph's argument: it is stored for the family, and reads \
            a value that a provider call carried into one graph (\(describe(chain))). Every later graph \
            would get the first one's. To fix this, give \(chain[0].description) the .objectGraph scope, \
            or pass it the value where the code that uses it has it.
            """
        )
    }

    static func providerCarryingInsideARead(_ root: Assembly.Type) -> Never {
        stop(
            """
            a provider that carries arguments was called inside a read of the family of \(root), from \
            an async definition body or a hook: its graph would be opened inside the graph of the read. \
            To fix this, call the provider where the program handles a request or a job, outside the \
            family's reads.
            """
        )
    }

    static func providerCalledDuringShutdown(
        _ root: Assembly.Type,
        madeFrom assembly: Assembly.Type,
        file: StaticString,
        line: UInt
    ) -> Never {
        stop(
            """
            a provider made by \(assembly) (\(file):\(line)) was called after its family began to shut \
            down (\(root).shutDown()): a family that shuts down finishes the reads already running, \
            and refuses new ones. To fix this, stop what calls the provider before shutting the family \
            down — in a server, let the HTTP server finish its requests first.
            """
        )
    }

    static func providerOutlivedItsRoot(
        _ root: Assembly.Type,
        madeFrom assembly: Assembly.Type,
        file: StaticString,
        line: UInt
    ) -> Never {
        stop(
            """
            a provider made by \(assembly) (\(file):\(line)) was called after the root of its family, \
            \(root), was released: the family and its singletons are gone. A provider holds its family \
            weakly, so that an object that keeps one doesn't keep the family alive. To fix this, keep \
            the \(root) you created for as long as objects its family built may call their providers: \
            in a server, until it has shut down; in a test, until the test ends.
            """
        )
    }

    static func noDefaultFamily(_ root: Any.Type, _ value: Any.Type, wrapper: String) -> Never {
        stop(
            """
            @\(wrapper)(\\\(root).…) was read as \(value), but no family of assemblies is the default, \
            so there is nothing to resolve it from. To fix this, make a family the default when the \
            program starts: `let app = \(root)(); app.makeDefault()` (or a root assembly that \
            reaches \(root) as a collaborator); in a test, `app.makeDefault(during: { ... })`. For a \
            property that may stay empty, use @InjectedIfAvailable.
            """
        )
    }

    static func injectionReadWhileResolving(_ root: Any.Type, _ value: Any.Type, wrapper: String) -> Never {
        stop(
            """
            @\(wrapper)(\\\(root).…) was read as \(value) while this thread was resolving that very \
            property: resolving it read it again, so its value doesn't exist yet. This happens when the \
            definition (or something it builds) reads the object that holds the property — from the \
            object's initializer, say. To fix this, read the property only once the object is built, \
            or pass the dependency in through the definition instead of the property wrapper.
            """
        )
    }

    /// `chain`: the definitions being built on the thread, outermost first, the one that threw last.
    /// The body at the end of `chain` threw after its registered instance was taken by `taker` (nil:
    /// by another thread, to break a cycle of singletons), reached through `between`.
    static func threwAfterHandingOut(
        _ chain: [DefinitionKey],
        takenBy taker: DefinitionKey?,
        through between: [DefinitionKey]
    ) -> Never {
        let thrower = chain[chain.count - 1]
        let takenBy: String
        if let taker {
            takenBy = """
                \(taker.description), which read it back while it was being built \
                (\(describe([thrower] + between + [taker, thrower])))
                """
        } else {
            takenBy = "another thread, to break a cycle between singletons built on both threads"
        }
        stop(
            """
            the body of \(thrower.description) threw after its instance, registered with `*~>`, was handed \
            out to \(takenBy)\(chain.count > 1 ? "; read through \(describe(chain))" : ""). What holds that instance would keep an \
            object that was never finished. To fix this, do the work that throws in \(thrower.description) \
            before `definition *~> instance` registers it — open the file or the database first, then \
            build and register the object — or don't let the error leave the body.
            """
        )
    }

    /// A graph whose read threw had held `key`'s instance back for its `afterAllInjections` steps,
    /// and another thread took it, reading it through `chain`, to break a cycle of waits: the steps
    /// will never run.
    static func abandonedAfterHeldInstanceWasTaken(_ key: DefinitionKey, takenThrough chain: [DefinitionKey]) -> Never {
        stop(
            """
            a read threw after another thread took the instance of \(key.description) (read through \
            \(describe(chain))), which the graph that threw held back for its `afterAllInjections` steps, \
            to break a cycle between singletons built on both threads. The steps will never run, so what \
            holds that instance would keep an object that was never finished. To fix this, build \
            \(key.description) eagerly with activate() before other threads read it, or don't let the \
            error leave the graph.
            """
        )
    }

    static func mutableStoredProperty(_ assembly: AnyClass, _ field: String) -> Never {
        let lazy = "$__lazy_storage_$_"
        let property: String
        if field.hasPrefix(lazy) {
            property = "`lazy var \(field.dropFirst(lazy.count))`"
        } else if field.hasPrefix("_") {
            property = "`var \(field.dropFirst())` (the storage of a property wrapper) or `var \(field)`"
        } else {
            property = "`var \(field)`"
        }
        stop(
            """
            \(assembly) declares the stored property \(property), but an assembly keeps no mutable state: \
            every thread that reads its family shares it, so a stored variable races, and the \
            `@unchecked Sendable` that each assembly restates keeps the compiler from saying so. To fix \
            this, make it a `let` of a `Sendable` type (a class that locks, for a value that changes), \
            give the family the value with `init(configuration:)`, or define the object it holds.
            """
        )
    }

    static func configurationTypeGivenTwice(_ root: Assembly.Type, _ type: Any.Type) -> Never {
        stop(
            """
            \(root)(configuration:) was given two values of type \(type), but a family keeps one value of \
            each type, which its definitions read by type. To fix this, give the values types of their \
            own, or gather them in a struct: `struct Endpoints: Sendable { let api: URL; let images: URL }`.
            """
        )
    }

    static func configurationValueMissing(
        _ value: Any.Type,
        readBy reader: Assembly.Type,
        configuration: FamilyConfiguration,
        matches: [Any.Type]
    ) -> Never {
        let root = configuration.rootType
        let read = "\(reader) read configuration(\(value).self), but"
        if !matches.isEmpty {
            stop(
                """
                \(read) several of the family's values are one: \(matches.map { "\($0)" }.joined(separator: ", ")). \
                To fix this, ask for the exact type of one of them.
                """
            )
        } else if configuration.isGiven {
            stop(
                """
                \(read) the family has no value of that type: \(root) was created with \
                \(configuration.typeNames.joined(separator: ", ")) and no \(value). To fix this, create it with \
                one more value: `\(root)(configuration: ..., \(value)(...))`.
                """
            )
        } else {
            stop(
                """
                \(read) the family has no value of that type: its root, \(root), was created with `init()`, \
                without configuration. To fix this, create the root with its values: \
                `\(root)(configuration: \(value)(...))`.
                """
            )
        }
    }

    static func resetOfUnnamedScope(_ scope: Scope) -> Never {
        stop(
            """
            reset(.\(scope)) was called, but only a resettable scope can be reset: singletons live as \
            long as their family, and other scopes keep nothing. To fix this, define the instances \
            with a scope made by `Scope.resettable("name")` and reset that scope.
            """
        )
    }

    @usableFromInline
    static func lineTooLarge(_ line: UInt, assembly: Assembly.Type, member: StaticString) -> Never {
        stop(
            """
            \(String(describing: assembly)).\(member) calls `define` with line \(line), which is 2³² or \
            more: a definition's line is part of its key, and must be smaller. To fix this, leave \
            `line:` to its default, `#line`.
            """
        )
    }

    @usableFromInline
    static func registeredWrongType(_ key: DefinitionKey, object: Any.Type, expected: Any.Type) -> Never {
        stop(
            """
            \(key.description) registered an instance of \(object), which is not a \(expected). \
            To fix this, register an instance of the definition's type with `definition *~> …`.
            """
        )
    }

    static func registeredTwice(_ key: DefinitionKey) -> Never {
        stop(
            """
            \(key.description) registered two different instances. A definition builds one \
            instance. To fix this, register only the instance the body returns.
            """
        )
    }

    static func returnedOtherObject(_ key: DefinitionKey) -> Never {
        stop(
            """
            \(key.description) registered one instance but returned another, so the graph would \
            hold two. To fix this, return the instance you registered with `definition *~> …`.
            """
        )
    }

    @usableFromInline
    static func asyncSingletonCycle(_ chain: [DefinitionKey], held: [DefinitionKey]) -> Never {
        let waited = chain[chain.count - 1].description
        stop(
            """
            two tasks wait for each other's singletons: this task reads \(describe(chain)), and \
            \(waited) is being built by another task (or thread), which reads \(describe(held)) and waits \
            for a singleton this task is building. In one task this cycle would close through the \
            instances registered with `definition *~>`; two tasks building it at once would wait for \
            each other for ever. To fix this, build one of these singletons before the other: read it \
            first, or build it eagerly with `await activate()`.
            """
        )
    }

    static func graphsWaitOnOneThread(_ chain: [DefinitionKey], held: [DefinitionKey]) -> Never {
        let waited = chain[chain.count - 1].description
        stop(
            """
            a read waits for a singleton that a graph below it on the same thread is building or \
            holding back: the read is \(describe(chain)), and \(waited) belongs to the graph reading \
            \(describe(held)), below it. An async body's task and the thread it runs on keep graphs of \
            their own: a synchronous read in an async body joins the task's graph when it reads the \
            body's family — directly or from below a read of another family — and stays in the \
            thread's graph otherwise. When one graph reads back what the other is building, neither \
            can go on. To fix this, read \(waited) in the async body first, so that it is built \
            before, or break the cycle between the two families.
            """
        )
    }

    /// A ``Definition`` of `key` used after its body returned, or on another thread. Only the key's
    /// name is described: the argument values it pointed at may be gone.
    static func definitionUsedOutsideItsBody(_ key: DefinitionKey) -> Never {
        let name = DefinitionName(key)
        stop(
            """
            the Definition of \(name) was used after its body returned, or on another thread. A \
            Definition is valid only while its definition body runs, on the thread (or in the task) \
            that runs it. To fix this, use `definition` only inside the body of \(name): register \
            with `*~>` and add hooks there, and don't keep the parameter.
            """
        )
    }

    static func ambiguousMatch(_ type: Any.Type, candidates: [DefinitionKey]) -> Never {
        stop(
            """
            existingObjectByMatchingType() found several instances of \(type) in the current graph: \
            \(candidates.map(\.description).joined(separator: ", ")). To fix this, look it up with \
            existingObject(withKey:) or ask for a more specific type.
            """
        )
    }
}

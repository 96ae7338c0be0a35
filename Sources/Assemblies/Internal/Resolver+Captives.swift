// Captive dependencies: a stored instance (singleton, weak singleton, resettable scope) whose body
// reads a shorter-lived shared instance. Checked only while a stored definition of a family that
// checks is being built (``Resolver/SlotBuilds/watchedCount``).

extension Resolver {
    /// Checks a read of `key`, an object-graph definition or one of a resettable scope, made while
    /// a stored definition of a family that checks is being built.
    @inline(never)
    func checkCaptive(_ key: DefinitionKey, scope: Scope) {
        guard intentionalCaptiveFrame != frames.count, let family = graph.family else { return }
        let keeperScope: Scope
        let chain: [DefinitionName]
        if let last = building.last, last.frame == frames.count {
            // A hook of a stored definition whose body has returned (its frame is gone): it keeps
            // what its hooks read.
            keeperScope = last.slot.scope
            chain = [DefinitionName(last.slot.key), DefinitionName(key)]
        } else {
            // The nearest frame below that isn't a prototype keeps what this read returns.
            var keeper = frames.count - 1
            while keeper >= 0 && frames[keeper].scope == .prototype { keeper -= 1 }
            guard keeper >= 0, frames[keeper].scope != .objectGraph,
                let scope = building.last(where: { $0.frame == keeper })?.slot.scope
            else { return }
            keeperScope = scope
            chain = (keeper..<frames.count).map { DefinitionName(self.key(ofFrame: $0)) } + [DefinitionName(key)]
        }
        if scope.kind == .resettable && keeperScope == scope { return }
        let captive = CaptiveDependency(chain: chain, keeperScope: keeperScope, keptScope: scope)
        // In a graph of its own: a `.report` handler that reads definitions doesn't join this graph,
        // nor find captive dependencies in it again.
        inGraphOfItsOwn { family.report(captive) }
    }
}

extension Resolver {
    /// Runs `read` with the read it makes at this frame count marked as intended (see
    /// ``Assembly/intentionallyCaptive(_:)-(()->T)``), then restores the mark it replaced.
    func markingIntentionalCaptive<Result>(_ read: () -> Result) -> Result {
        let previous = intentionalCaptiveFrame
        intentionalCaptiveFrame = frames.count
        defer { intentionalCaptiveFrame = previous }
        return read()
    }
}

extension Family {
    /// Whether stored definitions built in this family are watched for captive dependencies.
    var checksCaptives: Bool {
        if WiringFindings.current != nil { return true }
        return withCaptives {
            if case .ignore = $0.mode { return false }
            return true
        }
    }

    /// Does what the family's mode says with `captive`.
    func report(_ captive: CaptiveDependency) {
        if let findings = WiringFindings.current {
            // A wiring check collects it, and leaves the family as it was.
            return findings.add(.captiveDependency(captive))
        }
        let (mode, isNew) = withCaptives { state in
            (state.mode, state.reported.insert(captive.chain).inserted)
        }
        switch mode {
        case .ignore: return
        case .warn: if isNew { WaitWarning.print(captive.description) }
        case .stop: Failure.stop("Assemblies: \(captive.description)")
        case .report(let report): report(captive)
        }
    }
}

/// A family's ``CaptiveDependencies`` mode and the chains it has reported, and the chains of values
/// handed out in flight it has warned about (see ``Resolver/warnValueHandedOut(_:type:)``).
struct CaptiveState {
    var mode = CaptiveDependencies.default
    var reported: Set<[DefinitionName]> = []
    var warned: Set<[DefinitionName]> = []
}

import AuditModel
import SwiftGrammar
import TreeSitter

/// What the code each clock runs changes (`RotationReader`'s second walk).
extension RotationReader {
    // MARK: - What clocks change

    /// The changes in the code each clock runs, and in the methods of its type that code calls
    /// (`RotationReader.methodDepth` calls deep, in this file).
    mutating func noteChanges() {
        for (method, clock) in pendingTargets {
            for body in methods[method] ?? [] { clockCode.append(ClockCode(body: body, clock: clock, waits: false)) }
        }
        var seen = Set<String>()
        var level = clockCode
        for depth in 0...Self.methodDepth {
            var next: [ClockCode] = []
            for code in level where seen.insert("\(code.body.startByte):\(code.clock.line):\(code.clock.column)").inserted {
                let owner = Self.owner(code.body.ancestors)
                noteChanges(in: code)
                guard depth < Self.methodDepth, let owner else { continue }
                code.body.walk { node in
                    if SwiftKinds.callExpression.contains(node), let name = Self.calledMethodName(node) {
                        for body in self.methods[owner + "." + name] ?? [] { next.append(ClockCode(body: body, clock: code.clock, waits: false)) }
                    }
                    return true
                }
            }
            level = next
        }
    }

    /// How many calls deep a clock's code is followed into the methods of its own type.
    static let methodDepth = 2

    /// The assignments of one piece of clock code, in source order. Waits split a wait clock's loop
    /// into ticks; a member set twice in one tick is stepped by the work, not by the clock; a value
    /// set after an `await` (other than a wait) or taken from one follows the work.
    mutating func noteChanges(in code: ClockCode) {
        var tick = 0
        var afterWork = false
        var casesInTick: [String: Int] = [:]
        /// Members set once the work's result is in: their other values in the same code follow the work too.
        var setAfterWork = Set<String>()
        var found: [(node: Node, target: RotationFacts.ValuePath, shape: RotationFacts.ValueShape, tick: Int)] = []
        /// What moves a value besides its assignment's right side: a helper method's computation, a wrap's condition.
        var moreReads: [Int: [RotationFacts.ValuePath]] = [:]
        code.body.walk { node in
            if node.isError { return false }
            // Code that runs later, elsewhere: a nested clock's closure is that clock's.
            // (Kinds asked by number, `SwiftKinds`: this walk asks them of every node of the clock's code.)
            if node != code.body, SwiftKinds.lambdaLiteral.contains(node), let call = node.parent?.parent, call.type == SwiftNodeType.callExpression,
               let name = SwiftCall.calleeName(of: call), self.names.clockCalls.contains(name) { return false }
            if SwiftKinds.callExpression.contains(node), let name = SwiftCall.calleeName(of: node), self.vocabulary.waitClocks[name] != nil, code.waits {
                tick += 1
                return false
            }
            if SwiftKinds.awaitExpression.contains(node) {
                let waits = node.namedChildren.contains { inner in
                    var isWait = false
                    inner.walk { call in
                        if SwiftKinds.callExpression.contains(call), let name = SwiftCall.calleeName(of: call), self.vocabulary.waitClocks[name] != nil { isWait = true }
                        return !isWait
                    }
                    return isWait
                }
                if !waits { afterWork = true }
            }
            guard SwiftKinds.assignment.contains(node), !node.hasError, let target = node.child(byField: SwiftField.target),
                  let result = node.child(byField: SwiftField.result), let path = Self.path(of: target.namedChildren.last ?? target) else { return true }
            let operation = node.child(byField: SwiftField.operator)?.text ?? "="
            var shape: RotationFacts.ValueShape
            if afterWork || Self.contains(result, type: SwiftNodeType.awaitExpression) || Self.contains(result, type: SwiftNodeType.tryExpression) {
                shape = .other
                setAfterWork.insert(path.description)
            } else if operation == "+=" || operation == "-=" {
                shape = .advance
            } else if operation == "=", Self.movesOn(result, from: path.names.last ?? "") {
                shape = .advance
            } else if operation == "=", let reads = self.movesOnInMethod(result, from: path.names.last ?? "") {
                shape = .advance
                moreReads[node.startByte] = reads
            } else {
                shape = self.shape(of: result)
                // `if index == tips.count { index = 0 }`: what the wrap compares the index with.
                if shape == .step, let name = path.names.last, let condition = Self.wrapCondition(around: node, reading: name, within: code.body) {
                    moreReads[node.startByte] = Self.paths(in: condition)
                }
            }
            // A value read by name changes nothing by itself, except an enum's case written with its
            // type (`phase = LoadPhase.slow`).
            // (A value made in place by a clock is not followed: what it shows is the made type's business.)
            if case .made = shape { shape = .other }
            if case .path(let value) = shape {
                shape = value.names.count == 2 && value.names[0].first?.isUppercase == true ? .enumCase(value.names[1]) : .other
            }
            if shape != .other {
                if case .enumCase = shape { casesInTick[path.description + "#\(tick)", default: 0] += 1 }
                found.append((node, path, shape, tick))
            }
            return true
        }
        for (node, target, shape, tick) in found {
            // Two cases set in one tick, or a case set before work that sets the state again when it is
            // done: the work steps the state (`.checking`, then `.upToDate`), not the clock.
            if case .enumCase = shape, casesInTick[target.description + "#\(tick)", default: 0] > 1 || setAfterWork.contains(target.description) { continue }
            // A display property set on the clock: the display itself changes with it.
            if vocabulary.displayProperties.contains(target.names.last ?? ""), target.names.count > 1,
               let set = displaySets.first(where: { $0.node == node }) {
                facts.displays[set.index].setBy = code.clock
                continue
            }
            var change = RotationFacts.TimedChange(target: target, context: context(node.ancestors), shape: shape, clock: code.clock,
                                                   place: place(target.names.last ?? "", node))
            if let result = node.child(byField: SwiftField.result) { change.reads = Self.unique(Self.paths(in: result) + (moreReads[node.startByte] ?? [])) }
            facts.changes.append(change)
        }
    }

    /// Whether `value` moves `name` on: `(index + 1) % tips.count`, `index == last ? 0 : index + 1`.
    static func movesOn(_ value: Node, from name: String) -> Bool {
        guard [SwiftNodeType.additiveExpression, SwiftNodeType.multiplicativeExpression, SwiftNodeType.ternaryExpression, SwiftNodeType.tupleExpression].contains(value.type) else { return false }
        var reads = false
        value.walk { node in
            if node.type == SwiftNodeType.simpleIdentifier, node.text == name { reads = true }
            return !reads
        }
        return reads
    }

    /// Whether `value` calls a method of the type around it, given `name`, that returns a value moved
    /// on from its parameter: `index = nextIndex(after: index)` with `func nextIndex(after current: Int)
    /// -> Int { (current + 1) % tips.count }`. Only methods of this file's type of that name, each
    /// with a body of one expression (or one `return`).
    /// Gives what the method's computation reads besides its parameters (`tips` of `tips.count`), nil
    /// when `value` is no such call.
    func movesOnInMethod(_ value: Node, from name: String) -> [RotationFacts.ValuePath]? {
        guard value.type == SwiftNodeType.callExpression, let method = Self.calledMethodName(value), let call = SwiftCall(value),
              call.arguments.contains(where: { Self.contains($0.value, name: name) }), let owner = Self.owner(value.ancestors) else { return nil }
        for body in methods[owner + "." + method] ?? [] {
            guard let declaration = body.parent, let statements = body.namedChildren.first(where: { $0.type == SwiftNodeType.statements }) else { continue }
            let parts = statements.namedChildren.filter { !SwiftExpressions.isComment($0) }
            guard parts.count == 1, let returned = parts[0].type == SwiftNodeType.controlTransferStatement ? parts[0].namedChildren.last : parts[0] else { continue }
            let parameters = Set(declaration.namedChildren.filter { $0.type == SwiftNodeType.parameter }
                .flatMap { $0.namedChildren.filter { $0.type == SwiftNodeType.simpleIdentifier }.map(\.text) })
            if parameters.contains(where: { Self.movesOn(returned, from: $0) }) {
                return Self.paths(in: returned).filter { $0.fromSelf || !parameters.contains($0.names[0]) }
            }
        }
        return nil
    }

    /// The condition of the `if` around `node` (inside `body`) that reads `name`: `if index == tips.count { index = 0 }`.
    static func wrapCondition(around node: Node, reading name: String, within body: Node) -> Node? {
        // (`ancestors` is innermost first.)
        for ancestor in node.ancestors {
            if ancestor == body { return nil }
            guard ancestor.type == SwiftNodeType.ifStatement else { continue }
            let conditions = ancestor.children(byField: SwiftField.condition)
            return conditions.contains(where: { contains($0, name: name) }) ? conditions.first : nil
        }
        return nil
    }

    /// A time-driven view's content closure: its parameter (`context`) is the time, and each local
    /// declared from it (or from an earlier one) is computed from the time; displays inside see them.
    mutating func noteTimeDriven(_ closure: Node, clock: RotationFacts.Place) {
        guard !closure.hasError else { return }
        var timed: [String: RotationFacts.TimeDrivenValue] = [:]
        for name in Self.closureParameters(closure) { timed[name] = RotationFacts.TimeDrivenValue(clock: clock, value: .time) }
        guard !timed.isEmpty else { return }
        closure.walk { node in
            guard node.type == SwiftNodeType.propertyDeclaration, !node.hasError, let name = Self.boundName(node), let value = node.child(byField: SwiftField.value) else { return true }
            let reads = Self.paths(in: value).compactMap(\.names.first)
            guard reads.contains(where: { timed[$0] != nil }) else { return true }
            var shape = self.shape(of: value)
            if case .other = shape { shape = .time }
            timed[name] = RotationFacts.TimeDrivenValue(clock: clock, value: shape)
            return true
        }
        for index in facts.displays.indices where closure.startByte <= facts.displays[index].startByte && facts.displays[index].endByte <= closure.endByte {
            facts.displays[index].context.timeDriven.merge(timed) { first, _ in first }
        }
    }
}

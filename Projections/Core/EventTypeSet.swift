import EventModel

/// The event types a projector folds (`Projector.handledEvents`): the engine calls `apply` only with these, so
/// a batch of mail is not handed whole to every view. A bitmap over type codes below 256 (every code so far);
/// a code above is in the set only when the set is `all`.
package struct EventTypeSet: Sendable, Equatable {
    private var words: [UInt64]
    private var containsAll: Bool

    /// Every type, known or not: a projector that declares nothing.
    package static let all = EventTypeSet(words: Array(repeating: ~0, count: 4), containsAll: true)

    private init(words: [UInt64], containsAll: Bool) {
        self.words = words
        self.containsAll = containsAll
    }

    /// The set of `types`.
    package init(_ types: [EventType]) {
        words = Array(repeating: 0, count: 4)
        containsAll = false
        for t in types where t.rawValue < 256 { words[Int(t.rawValue >> 6)] |= 1 << UInt64(t.rawValue & 63) }
    }

    /// Whether `type` is in the set.
    @inline(__always) package func contains(_ type: EventType) -> Bool {
        type.rawValue < 256 ? words[Int(type.rawValue >> 6)] & (1 << UInt64(type.rawValue & 63)) != 0 : containsAll
    }
}

extension SearchExpr {
    /// Whether this node, or any node below it (operands of AND and OR, the operand of NOT), satisfies `predicate`.
    package func contains(where predicate: (SearchExpr) -> Bool) -> Bool {
        if predicate(self) { return true }
        switch self {
        case .and(let parts), .or(let parts): return parts.contains { $0.contains(where: predicate) }
        case .not(let inner): return inner.contains(where: predicate)
        case .all, .text, .filter: return false
        }
    }
}

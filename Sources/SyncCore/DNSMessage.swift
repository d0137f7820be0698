/// The little of DNS (RFC 1035) that account discovery needs: a query for one name and type, and the SRV
/// (RFC 2782) and MX answers of a response. Pure: no I/O. Every read is bounds-checked; compression pointers
/// may only point backwards, so a hostile response cannot loop.
package enum DNSMessage {
    /// Record types asked for.
    package enum RecordType: UInt16, Sendable { case mx = 15, srv = 33 }

    /// An SRV answer.
    package struct SRV: Sendable, Equatable {
        package var priority: UInt16
        package var weight: UInt16
        package var port: UInt16
        /// The host (no trailing dot); "" when the service is decidedly not available (target ".").
        package var target: String
    }

    /// An MX answer.
    package struct MX: Sendable, Equatable {
        package var preference: UInt16
        package var exchange: String
    }

    /// Why a response was not accepted.
    package struct Malformed: Error, Equatable, CustomStringConvertible {
        package var reason: String
        package var description: String { "malformed DNS response: \(reason)" }
    }

    /// A recursive query for `name` and `type` with transaction `id`; nil for a name that cannot be encoded.
    package static func query(id: UInt16, name: String, type: RecordType) -> [UInt8]? {
        var out: [UInt8] = [UInt8(id >> 8), UInt8(id & 0xff), 0x01, 0x00, 0, 1, 0, 0, 0, 0, 0, 0]
        let labels = name.split(separator: ".", omittingEmptySubsequences: true)
        guard !labels.isEmpty, name.utf8.count <= 253 else { return nil }
        for label in labels {
            let bytes = Array(label.utf8)
            guard (1...63).contains(bytes.count) else { return nil }
            out.append(UInt8(bytes.count))
            out += bytes
        }
        out.append(0)
        out += [UInt8(type.rawValue >> 8), UInt8(type.rawValue & 0xff), 0, 1]
        return out
    }

    /// Whether `bytes` is a response with TC (truncated) set: the answer did not fit and must be asked for again over
    /// TCP (RFC 1035 4.1.1, RFC 7766); what it holds is a part at best.
    package static func isTruncated(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 3 && bytes[2] & 0x02 != 0
    }

    /// The answers of `type` in response `bytes` to query `id` (an NXDOMAIN or empty answer is []).
    static func answers(_ bytes: [UInt8], id: UInt16, type: RecordType) throws(Malformed) -> [(rdata: Range<Int>, start: Int)] {
        guard bytes.count >= 12 else { throw Malformed(reason: "shorter than a header") }
        guard UInt16(bytes[0]) << 8 | UInt16(bytes[1]) == id else { throw Malformed(reason: "another query's id") }
        guard bytes[2] & 0x80 != 0 else { throw Malformed(reason: "not a response") }
        let rcode = bytes[3] & 0x0f
        if rcode == 3 { return [] }
        guard rcode == 0 else { throw Malformed(reason: "server error code \(rcode)") }
        let qd = Int(u16(bytes, 4)), an = Int(u16(bytes, 6))
        guard qd <= 4, an <= 64 else { throw Malformed(reason: "too many records") }
        var i = 12
        for _ in 0..<qd {
            _ = try name(bytes, at: &i)
            i += 4
        }
        var out: [(Range<Int>, Int)] = []
        for _ in 0..<an {
            _ = try name(bytes, at: &i)
            guard i + 10 <= bytes.count else { throw Malformed(reason: "record cut short") }
            let t = u16(bytes, i), length = Int(u16(bytes, i + 8))
            let start = i + 10
            guard start + length <= bytes.count else { throw Malformed(reason: "record data cut short") }
            if t == type.rawValue { out.append((start..<start + length, start)) }
            i = start + length
        }
        return out
    }

    /// The SRV answers of a response, by priority then weight (highest first).
    package static func srv(_ bytes: [UInt8], id: UInt16) throws(Malformed) -> [SRV] {
        try answers(bytes, id: id, type: .srv).map { (r, start) throws(Malformed) in
            guard r.count >= 7 else { throw Malformed(reason: "SRV record too short") }
            var i = start + 6
            let target = try name(bytes, at: &i)
            return SRV(priority: u16(bytes, start), weight: u16(bytes, start + 2), port: u16(bytes, start + 4), target: target)
        }.sorted { ($0.priority, -Int($0.weight)) < ($1.priority, -Int($1.weight)) }
    }

    /// The MX answers of a response, most preferred first.
    package static func mx(_ bytes: [UInt8], id: UInt16) throws(Malformed) -> [MX] {
        try answers(bytes, id: id, type: .mx).map { (r, start) throws(Malformed) in
            guard r.count >= 3 else { throw Malformed(reason: "MX record too short") }
            var i = start + 2
            return MX(preference: u16(bytes, start), exchange: try name(bytes, at: &i))
        }.sorted { $0.preference < $1.preference }
    }

    static func u16(_ b: [UInt8], _ i: Int) -> UInt16 { UInt16(b[i]) << 8 | UInt16(b[i + 1]) }

    /// Reads a (possibly compressed) name at `i`, moving `i` past it; lower-cased, no trailing dot.
    static func name(_ b: [UInt8], at i: inout Int) throws(Malformed) -> String {
        var labels: [String] = []
        var p = i
        var jumped = false
        var total = 0
        while true {
            guard p < b.count else { throw Malformed(reason: "name cut short") }
            let len = Int(b[p])
            if len == 0 {
                if !jumped { i = p + 1 }
                break
            }
            if len & 0xc0 == 0xc0 {
                guard p + 1 < b.count else { throw Malformed(reason: "pointer cut short") }
                let target = (len & 0x3f) << 8 | Int(b[p + 1])
                guard target < p else { throw Malformed(reason: "forward compression pointer") }
                if !jumped { i = p + 2 }
                jumped = true
                p = target
                continue
            }
            guard len <= 63, p + 1 + len <= b.count else { throw Malformed(reason: "label cut short") }
            total += len + 1
            guard total <= 255 else { throw Malformed(reason: "name too long") }
            labels.append(String(decoding: b[(p + 1)...(p + len)], as: UTF8.self).lowercased())
            p += 1 + len
        }
        return labels.joined(separator: ".")
    }
}

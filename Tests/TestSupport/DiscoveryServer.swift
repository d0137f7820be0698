import Foundation

/// The account discovery servers of Tools/test-server/discovery (`$MAILSTORE_TEST_DISCOVERY`, else started now):
/// dnsmasq with SRV and MX records for the `.test` domains its header lists, and an autoconfig HTTP server in the
/// ISPDB layout (valid for ispdb.test, invalid XML for badxml.test, slow for slow.test).
package struct DiscoveryServer: Sendable {
    /// `127.0.0.1:PORT` (UDP), for `MAILSTORE_DNS_SERVER`.
    package let dnsServer: String
    /// `http://127.0.0.1:PORT/v1.1/`, for `MAILSTORE_AUTOCONFIG_URL`.
    package let autoconfigURL: String
    /// How long slow.test's autoconfig answer takes.
    package let slowSeconds: Double
    package let dir: String

    init(dir: String, script: String) throws {
        let values = try ServerEnvironmentFile.read(dir + "/env", required: ["DISCOVERY_DNS_SERVER", "DISCOVERY_AUTOCONFIG_URL"],
                                                    startCommand: "\(script) start \(dir)")
        dnsServer = values["DISCOVERY_DNS_SERVER"]!
        autoconfigURL = values["DISCOVERY_AUTOCONFIG_URL"]!
        slowSeconds = values["DISCOVERY_SLOW_SECONDS"].flatMap(Double.init) ?? 15
        self.dir = dir
    }

    /// The environment pointing mailstore's discovery at these servers.
    package var environment: [String: String] {
        ["MAILSTORE_DNS_SERVER": dnsServer, "MAILSTORE_AUTOCONFIG_URL": autoconfigURL]
    }

    /// The paths the autoconfig server was asked for so far (`GET /v1.1/DOMAIN` lines of its log).
    package func autoconfigRequests() -> [String] {
        let log = (try? String(contentsOfFile: dir + "/autoconfig.log", encoding: .utf8)) ?? ""
        return log.split(separator: "\n").filter { $0.hasPrefix("GET ") }.map { String($0.dropFirst(4)) }
    }
}

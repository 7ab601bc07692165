import Foundation
import ShoeboxTesting

/// A request timed beside its reference in the same run: rounds of ten requests, then ten of
/// the reference, alternating (so both see the same load), the first round unmeasured, until
/// `samples` of each or 10 s (at least two rounds).
enum PairedRounds {
    struct Outcome {
        var http = Percentiles()
        var reference = Percentiles()
        /// The last answer's body.
        var body: [UInt8] = []
    }

    /// `request` sends one request (its answer must be 2xx); `reference` runs the reference
    /// `count` times and answers each run's milliseconds.
    static func measure(
        samples: Int, request: () throws -> HTTPClientConnection.Answer, reference: (_ count: Int) async throws -> [Double]
    ) async throws -> Outcome {
        var http: [Double] = []
        var references: [Double] = []
        var body: [UInt8] = []
        let deadline = Date().addingTimeInterval(10)
        var round = 0
        while http.count < samples, round < 2 || Date() < deadline {
            for _ in 0..<10 {
                let answer = try request()
                guard answer.status / 100 == 2 else {
                    throw ChildProcess.Failure("the server answered \(answer.status): \(String(decoding: answer.body, as: UTF8.self))")
                }
                body = answer.body
                if round > 0 { http.append(answer.milliseconds) }
            }
            let times = try await reference(10)
            if round > 0 { references += times }
            round += 1
        }
        return Outcome(http: Percentiles(http), reference: Percentiles(references), body: body)
    }
}

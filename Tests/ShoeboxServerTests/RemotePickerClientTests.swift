import Foundation
import ShoeboxServer
import Testing

/// Issue 39 item 2: `shoebox pick` died after a minute because its client gave up on a request
/// after 60 s (URLSession's default) while the server held each poll for 60 s. Whatever the
/// environment says, a poll asks the server to wait at most half the request timeout, so an answer
/// of `pending` always arrives before the client would take the server for lost (the server keeps
/// to the wait asked: PickerAPITests.aPollWaitsItsSecondsAndPreselectionIsTheClients).
@Suite struct RemotePickerClientTests {
    let base = URL(string: "http://127.0.0.1:1")!

    @Test func theDefaultPollIsWellInsideTheRequestTimeout() {
        let client = RemotePickerClient(base: base, key: "k", environment: [:])
        #expect(client.requestTimeout == 120)
        #expect(client.pollWait == 30)
        // The old pair (60 s and 60 s) fails this: the poll's answer and the timeout raced.
        #expect(client.pollWait * 2 <= client.requestTimeout)
    }

    @Test(arguments: [
        (["SHOEBOX_PICK_REQUEST_TIMEOUT": "1"], 1.0, 0.5),
        (["SHOEBOX_PICK_REQUEST_TIMEOUT": "10", "SHOEBOX_PICK_POLL_WAIT": "60"], 10.0, 5.0),
        (["SHOEBOX_PICK_REQUEST_TIMEOUT": "600", "SHOEBOX_PICK_POLL_WAIT": "2"], 600.0, 2.0),
        (["SHOEBOX_PICK_REQUEST_TIMEOUT": "-5", "SHOEBOX_PICK_POLL_WAIT": "nan"], 120.0, 30.0),
        (["SHOEBOX_PICK_REQUEST_TIMEOUT": "inf"], 120.0, 30.0),
    ])
    func theEnvironmentCannotMakeAPollOutlastItsRequest(_ environment: [String: String], timeout: Double, wait: Double) {
        let client = RemotePickerClient(base: base, key: "k", environment: environment)
        #expect(client.requestTimeout == timeout)
        #expect(client.pollWait == wait)
        #expect(client.pollWait * 2 <= client.requestTimeout)
    }
}

import Foundation
import ShoeboxImaging
final class Counter: @unchecked Sendable { let lock = NSLock(); var ok = 0; var fail = 0 }
for path in CommandLine.arguments.dropFirst() {
    let c = Counter()
    DispatchQueue.concurrentPerform(iterations: 12) { _ in
        let success = (try? Image(contentsOfFile: path).thumbnail(targetSize: PixelSize(square: 64))) != nil
        c.lock.lock(); if success { c.ok += 1 } else { c.fail += 1 }; c.lock.unlock()
    }
    if c.ok != 0 && c.fail != 0 { print("INCONSISTENT \(path) ok \(c.ok) fail \(c.fail)") }
}
print("done")

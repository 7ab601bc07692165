import Foundation

/// The libFuzzer entry of `shoebox-fuzz`: one executable for every fuzz target, chosen by the
/// environment variable `SHOEBOX_FUZZ_TARGET` (`scripts/fuzz` sets it; `--list` there names them).
///
/// Built only by `scripts/fuzz` (`SHOEBOX_FUZZ=1` in the environment adds this target to the
/// package, with coverage and AddressSanitizer on our own modules): a plain `swift build` does not
/// see it, because it links against libFuzzer's runtime.
///
/// SwiftPM links every executable with `--defsym main=<module>_main`, so the module needs a `main`
/// of its own, and libFuzzer's runtime brings another: which one the linker keeps varies (gold kept
/// libFuzzer's in a small package, and this one here). This one hands its arguments to libFuzzer's
/// driver, so either way libFuzzer runs.
@main
enum FuzzMain {
    static func main() {
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, { data, size in LLVMFuzzerTestOneInput(data, size) }))
    }

    /// The target `SHOEBOX_FUZZ_TARGET` names, looked up once.
    static let target: FuzzTarget = {
        let name = ProcessInfo.processInfo.environment["SHOEBOX_FUZZ_TARGET"] ?? ""
        guard let target = FuzzTarget(rawValue: name) else {
            let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
            FileHandle.standardError.write(Data("shoebox-fuzz: set SHOEBOX_FUZZ_TARGET to one of \(names) (not \"\(name)\")\n".utf8))
            exit(2)
        }
        return target
    }()
}

// swift-format-ignore: AlwaysUseLowerCamelCase
/// libFuzzer's driver, in its runtime (`libclang_rt.fuzzer`). Declared by its symbol: the house
/// keeps C to the shim targets, and this signature (three pointers in, an `int` out) is passed the
/// same way by Swift's and C's calling conventions.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

// swift-format-ignore: AlwaysUseLowerCamelCase
/// Checks the target name before the first input, so a typo fails at once.
@_cdecl("LLVMFuzzerInitialize")
public func LLVMFuzzerInitialize(_ argc: UnsafeMutablePointer<CInt>?, _ argv: UnsafeMutableRawPointer?) -> CInt {
    _ = FuzzMain.target
    return 0
}

// swift-format-ignore: AlwaysUseLowerCamelCase
/// One input: the bytes go to the chosen target, which traps when a parser breaks a promise.
@_cdecl("LLVMFuzzerTestOneInput")
public func LLVMFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Data(bytes: $0, count: size) } ?? Data()
    FuzzMain.target.run(bytes)
    return 0
}

// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "Shoebox",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "ShoeboxImaging", targets: ["ShoeboxImaging"]),
        .library(name: "ShoeboxMedia", targets: ["ShoeboxMedia"]),
        .library(name: "ShoeboxCapture", targets: ["ShoeboxCapture"]),
        .library(name: "ShoeboxLibrary", targets: ["ShoeboxLibrary"]),
        .library(name: "ShoeboxPicker", targets: ["ShoeboxPicker"]),
        .library(name: "ShoeboxServer", targets: ["ShoeboxServer"]),
        .library(name: "ShoeboxTesting", targets: ["ShoeboxTesting"]),
        .executable(name: "shoebox", targets: ["shoebox"]),
        .executable(name: "shoebox-bench", targets: ["shoebox-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/swiftlang/swift-subprocess", from: "1.0.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        // Without swift-configuration support: the server takes its settings from the CLI.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: ["FullFoundation"]),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
    ],
    targets: [
        // libvips as the system provides it (Debian: libvips-dev), headers in /usr/include/vips.
        // pkg-config is asked for glib-2.0 only: vips.pc drags in `-pthread` (via OpenEXR and
        // gio), which SwiftPM refuses with a warning on every build. The module map links vips,
        // gobject-2.0 and glib-2.0 itself.
        .systemLibrary(
            name: "CLibVips",
            pkgConfig: "glib-2.0",
            providers: [.apt(["libvips-dev"])]
        ),
        // The only C in the project: non-variadic wrappers over the libvips calls we use,
        // libheif's decode to YCbCr planes (libheif-dev comes with libvips-dev), and camera raw
        // files through LibRaw (libraw-dev; its thread-safe libraw_r).
        .target(
            name: "CVips",
            dependencies: ["CLibVips"],
            linkerSettings: [
                .linkedLibrary("vips"),
                .linkedLibrary("heif"),
                .linkedLibrary("raw_r"),
                .linkedLibrary("gobject-2.0"),
                .linkedLibrary("gmodule-2.0"),
                .linkedLibrary("glib-2.0"),
            ]
        ),
        // Below everything: the error base every module's error conforms to, the one pool for
        // blocking work, and the small concurrency primitives (fan-out, gates, timeouts).
        .target(
            name: "ShoeboxSupport",
            dependencies: [.product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio")]
        ),
        .target(
            name: "ShoeboxImaging",
            dependencies: ["CVips", "ShoeboxSupport"]
        ),
        .target(
            name: "ShoeboxMedia",
            dependencies: [
                "ShoeboxImaging",
                .product(name: "Subprocess", package: "swift-subprocess"),
            ]
        ),
        .target(
            name: "ShoeboxLibrary",
            dependencies: [
                "ShoeboxImaging",
                "ShoeboxMedia",
                // zlib, for the archives an import unpacks (a Takeout's .zip and .tgz parts).
                "CZlib",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
                // scrypt for people's passwords (``PasswordHash``).
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        // The only other C: non-variadic wrappers over the V4L2 ioctls (ioctl(2) is variadic).
        .target(name: "CV4L2"),
        .target(name: "CZlib", linkerSettings: [.linkedLibrary("z")]),
        // Camera capture: AV Foundation's capture model over V4L2 and a synthetic camera. Who may
        // use a camera is asked through its CaptureAccessChecking protocol (the picker module
        // implements it on the library's Authorization), so capture does not depend on the library.
        .target(
            name: "ShoeboxCapture",
            dependencies: [
                "CV4L2", "ShoeboxImaging", "ShoeboxMedia",
                .product(name: "Subprocess", package: "swift-subprocess"),  // pactl, for PulseAudio sources
            ]
        ),
        // The picker: UIImagePickerController / PHPicker semantics over the library and capture,
        // with its user interface behind the PickerPresenter protocol.
        .target(
            name: "ShoeboxPicker",
            dependencies: ["ShoeboxImaging", "ShoeboxMedia", "ShoeboxLibrary", "ShoeboxCapture"]
        ),
        // The server and the web app (plain HTML, CSS and ES modules, served from resources).
        .target(
            name: "ShoeboxServer",
            dependencies: [
                "ShoeboxImaging", "ShoeboxMedia", "ShoeboxLibrary", "ShoeboxCapture", "ShoeboxPicker",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Crypto", package: "swift-crypto"),
                // RSA signatures of OpenID Connect providers' ID tokens (RS256).
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                // The OpenID Connect provider's discovery, keys and token endpoint.
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            resources: [.copy("Web")]
        ),
        // Test support shipped as a product: generated photos, pixel bombs, the shared corpus, a
        // temporary library, an in-process server, a clock the test moves, awaiting events.
        .target(
            name: "ShoeboxTesting",
            dependencies: [
                "ShoeboxImaging", "ShoeboxLibrary", "ShoeboxServer",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ]
        ),
        .executableTarget(
            name: "shoebox",
            dependencies: [
                "ShoeboxImaging",
                "ShoeboxMedia",
                "ShoeboxLibrary",
                "ShoeboxCapture",
                "ShoeboxPicker",
                "ShoeboxServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        // The README's Swift examples, generated by scripts/readme-examples: built, never run, so
        // that they keep compiling (a test checks the file matches the README).
        .executableTarget(
            name: "readme-examples",
            dependencies: [
                "ShoeboxImaging", "ShoeboxMedia", "ShoeboxLibrary", "ShoeboxCapture", "ShoeboxPicker", "ShoeboxServer", "ShoeboxTesting",
                .product(name: "HummingbirdTesting", package: "hummingbird"), .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        .executableTarget(
            name: "shoebox-bench",
            dependencies: [
                "ShoeboxImaging",
                "ShoeboxMedia",
                "ShoeboxLibrary",
                "ShoeboxCapture",
                .product(name: "GRDB", package: "GRDB.swift"),
                "ShoeboxTesting",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .testTarget(
            name: "ShoeboxImagingTests",
            dependencies: ["ShoeboxImaging", "ShoeboxTesting"]
        ),
        .testTarget(
            name: "ShoeboxMediaTests",
            dependencies: ["ShoeboxMedia", "ShoeboxTesting"]
        ),
        .testTarget(
            name: "ShoeboxLibraryTests",
            dependencies: [
                "shoebox", "ShoeboxLibrary", "ShoeboxTesting", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            exclude: ["Storage/Fixtures", "People/Fixtures"]
        ),
        .testTarget(
            name: "ShoeboxCaptureTests",
            dependencies: ["ShoeboxCapture", "ShoeboxTesting"]
        ),
        .testTarget(
            name: "ShoeboxPickerTests",
            dependencies: ["ShoeboxPicker", "ShoeboxCapture", "ShoeboxLibrary", "ShoeboxTesting"]
        ),
        .testTarget(
            name: "ShoeboxServerTests",
            dependencies: [
                "ShoeboxServer", "ShoeboxLibrary", "ShoeboxImaging", "ShoeboxMedia", "ShoeboxCapture", "ShoeboxTesting",
                .product(name: "Crypto", package: "swift-crypto"), .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Hummingbird", package: "hummingbird"), .product(name: "HummingbirdTesting", package: "hummingbird"),
            ]
        ),
        .testTarget(
            name: "ShoeboxTestingTests",
            dependencies: [
                "ShoeboxTesting", "ShoeboxLibrary", "ShoeboxServer", .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"), .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "ShoeboxCLITests",
            // Depending on the executable makes `swift test` build it; the tests run the binary.
            dependencies: ["shoebox", "ShoeboxImaging", "ShoeboxLibrary", "ShoeboxTesting"]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// Fuzzing (`scripts/fuzz`): with `SHOEBOX_FUZZ=1` in the environment the package gains
// `shoebox-fuzz`, one libFuzzer executable for every parser of untrusted input, and the modules
// holding those parsers are compiled with libFuzzer's coverage and AddressSanitizer, optimized as
// the release build is (-O keeps overflow traps, and runs three times the inputs a second);
// dependencies are built as usual. Only scripts/fuzz sets it, with a build folder of its own
// (.build-fuzz): the executable links against libFuzzer's runtime, so plain `swift build` never
// sees it.
if Context.environment["SHOEBOX_FUZZ"] == "1" {
    let instrumented = ["ShoeboxImaging", "ShoeboxMedia", "ShoeboxServer"]
    let sanitizers: [String] = ["-sanitize=fuzzer,address", "-O"]
    for target in package.targets where instrumented.contains(target.name) {
        target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(sanitizers)]
    }
    package.products.append(.executable(name: "shoebox-fuzz", targets: ["shoebox-fuzz"]))
    package.targets.append(
        .executableTarget(
            name: "shoebox-fuzz",
            dependencies: instrumented.map { .target(name: $0) } + [
                "ShoeboxLibrary", "ShoeboxPicker", .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
            ],
            swiftSettings: [.unsafeFlags(sanitizers)],
            linkerSettings: [.unsafeFlags(sanitizers)]
        ))
}

// The strictness Hummingbird's package asks of itself: every existential spelled `any`, and a
// member visible only in a file that imports its module.
for target in package.targets where !["CLibVips", "CVips", "CV4L2", "CZlib"].contains(target.name) {
    target.swiftSettings =
        (target.swiftSettings ?? []) + [
            .enableUpcomingFeature("ExistentialAny"),
            .treatWarning("ExistentialAny", as: .error),
            .enableUpcomingFeature("MemberImportVisibility"),
        ]
}

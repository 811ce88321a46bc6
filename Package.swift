// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "freedom-keys",
  products: [
    // SecureBytes and the key types appear in VaultKeys' public API, so an app imports both.
    .library(name: "CryptoPrimitives", targets: ["CryptoPrimitives"]),
    .library(name: "VaultKeys", targets: ["VaultKeys"]),
    .executable(name: "freedom-keys", targets: ["freedom-keys"]),
  ],
  targets: [
    .systemLibrary(
      name: "CSecp256k1", pkgConfig: "libsecp256k1", providers: [.apt(["libsecp256k1-dev"])]),
    .systemLibrary(name: "CSodium", pkgConfig: "libsodium", providers: [.apt(["libsodium-dev"])]),
    .systemLibrary(name: "COpenSSL", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
    // Intel's Multi-Buffer Crypto library: headers only, opened with dlopen when present.
    .systemLibrary(name: "CIPSecMB"),
    // PBKDF2-HMAC-SHA512/-SHA256 iterations in SIMD lanes (AVX-512, AVX2): a header only.
    .systemLibrary(name: "CSHA2Lanes"),
    // OpenCL's types and entry-point types: the ICD loader is opened with dlopen when present.
    .systemLibrary(name: "COpenCL"),
    // The package's only Swift caller of libc (`package` access): files, streams, terminal,
    // signals, threads, core dumps, libraries opened at run time.
    .target(name: "SystemCalls"),
    // How text reaches a person: the one rule that makes text from a file safe on a terminal,
    // and messages whose typed remedies the tool words. Pure Swift, beneath the command-line
    // framework and the libraries alike.
    .target(name: "Wording"),
    .target(
      name: "CryptoPrimitives",
      dependencies: [
        "CSecp256k1", "CSodium", "COpenSSL", "CIPSecMB", "CSHA2Lanes", "COpenCL", "SystemCalls",
      ]),
    .target(
      name: "VaultKeys",
      dependencies: ["CryptoPrimitives", "Wording"],
      resources: [
        .embedInCode("Wordlists/english.txt"),
        .embedInCode("Wordlists/japanese.txt"),
        .embedInCode("Wordlists/korean.txt"),
        .embedInCode("Wordlists/spanish.txt"),
        .embedInCode("Wordlists/chinese_simplified.txt"),
        .embedInCode("Wordlists/chinese_traditional.txt"),
        .embedInCode("Wordlists/french.txt"),
        .embedInCode("Wordlists/italian.txt"),
        .embedInCode("Wordlists/czech.txt"),
        .embedInCode("Wordlists/portuguese.txt"),
      ]),
    .target(
      name: "Recovery",
      dependencies: ["VaultKeys", "CryptoPrimitives", "SystemCalls", "Wording"]),
    .target(name: "NodeFiles", dependencies: ["CryptoPrimitives", "SystemCalls"]),
    // The command-line framework: options, commands, help, man pages, completions.
    .target(name: "CommandLineKit", dependencies: ["SystemCalls", "Wording"]),
    .target(
      name: "FreedomNodes",
      dependencies: ["VaultKeys", "NodeFiles", "Recovery", "CryptoPrimitives", "Wording"]),
    .executableTarget(
      name: "freedom-keys",
      dependencies: [
        "CommandLineKit", "FreedomNodes", "VaultKeys", "Recovery", "CryptoPrimitives",
        "Wording",
      ]
    ),
    // The helpers every test target shares (scratch directories, running programs).
    .target(name: "TestSupport", path: "Tests/TestSupport"),
    .testTarget(name: "CryptoPrimitivesTests", dependencies: ["CryptoPrimitives"]),
    .testTarget(name: "CommandLineKitTests", dependencies: ["CommandLineKit"]),
    .testTarget(name: "WordingTests", dependencies: ["Wording"]),
    .testTarget(
      name: "VaultKeysTests", dependencies: ["VaultKeys", "CryptoPrimitives", "TestSupport"]),
    .testTarget(
      name: "RecoveryTests",
      dependencies: ["Recovery", "VaultKeys", "CryptoPrimitives"]),
    .testTarget(
      name: "NodeFilesTests",
      dependencies: ["NodeFiles", "VaultKeys", "CryptoPrimitives", "TestSupport"]),
    .testTarget(
      name: "FreedomNodesTests",
      dependencies: [
        "FreedomNodes", "NodeFiles", "Recovery", "VaultKeys", "CryptoPrimitives",
        "TestSupport",
      ]),
    .testTarget(
      name: "FreedomKeysCLITests",
      dependencies: ["freedom-keys", "VaultKeys", "CryptoPrimitives", "TestSupport"]),
    .testTarget(
      name: "GoldenVectors", dependencies: ["VaultKeys", "FreedomNodes", "CryptoPrimitives"],
      resources: [.copy("Vectors")]),
  ]
)

// swift-tools-version:6.0
// The benchmark, a package of its own so that the library's package stays free of it and of
// full Foundation: `cd Benchmarks && swift run -c release freedom-keys-bench [filter]`.
import PackageDescription

let package = Package(
  name: "freedom-keys-bench",
  dependencies: [.package(name: "freedom-keys", path: "..")],
  targets: [
    .executableTarget(
      name: "freedom-keys-bench",
      dependencies: [
        .product(name: "CryptoPrimitives", package: "freedom-keys"),
        .product(name: "VaultKeys", package: "freedom-keys"),
      ],
      path: "freedom-keys-bench")
  ]
)

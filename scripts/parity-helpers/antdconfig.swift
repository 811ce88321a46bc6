// scripts/parity_checks/antd.py's reader of config.yaml shapes: freedom-keys' own AntdConfig,
// linked from the release build's objects. One case a line on standard input,
// `<yaml hex> <password hex>`;
// one answer a line on standard output:
//   ok <password|-> <password-file|-> <data-dir|-> edited <yaml hex> <re-read password|->
//   ok <password|-> <password-file|-> <data-dir|-> refused-edit <message hex>
//   refused <message hex>
// (every value hex, `-` for none). Test data only: nothing here is a real secret.
import CryptoPrimitives
import FreedomNodes

func hex(_ bytes: some Sequence<UInt8>) -> String {
  bytes.map {
    String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16)
  }
  .joined()
}

func hex(_ secret: SecureBytes?) -> String {
  secret.map { $0.withUnsafeBytes { hex(Array($0)) } } ?? "-"
}

func hex(_ text: String?) -> String { text.map { hex(Array($0.utf8)) } ?? "-" }

func bytes(_ hexText: Substring) -> [UInt8] {
  var out: [UInt8] = []
  var index = hexText.startIndex
  while index < hexText.endIndex {
    let next = hexText.index(index, offsetBy: 2)
    out.append(UInt8(hexText[index..<next], radix: 16)!)
    index = next
  }
  return out
}

while let line = readLine() {
  let fields = line.split(separator: " ", omittingEmptySubsequences: false)
  let yaml = SecureBytes(bytes(fields[0]))
  let newPassword = SecureBytes(bytes(fields[1]))
  let config: AntdConfig
  do {
    config = try AntdConfig(yaml: yaml)
  } catch {
    print("refused", hex(Array("\(error)".utf8)))
    continue
  }
  var answer = ["ok", hex(config.password), hex(config.passwordFile), hex(config.dataDir)]
  do {
    let edited = try config.settingPassword(newPassword)
    let reread = try AntdConfig(yaml: edited)
    answer += ["edited", hex(edited), hex(reread.password)]
  } catch {
    answer += ["refused-edit", hex(Array("\(error)".utf8))]
  }
  print(answer.joined(separator: " "))
}

import CryptoPrimitives
import Foundation
import FreedomNodes
import Testing
import VaultKeys

/// The identity desktop Freedom derives for "abandon … about" (freedom-desktop.json).
private let newPeerID = "12D3KooWKavfSLKnBEoUdrcsZKHE2tCWxrPkND6psrNRyL8DgtYW"
private let newPrivKey =
  "CAESQG18MhmN/5Ywlrkylqyzg8m08r2FpOUsEjv+4eXNAMdJkSN61ZWaJeAlSH3uvnu65ETlrC381v0QRC1D3YfvVkc="
private let oldPeerID = "12D3KooWSSppFRXRiW23YYh5zC8ZqSR2C3UgL2oJqhM5PjsAmxPk"
private let oldPrivKey =
  "CAESQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA/wAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=="

/// A config laid out as `ipfs init` (kubo 0.3x) writes it, plus values that a careless
/// re-encoding would change: a 64-bit integer beyond double precision, a negative number, a
/// fraction, an exponent, `\u` escapes, null, booleans, nested arrays, an unknown section.
private let realisticConfig = """
  {
    "API": {
      "HTTPHeaders": {}
    },
    "Addresses": {
      "API": "/ip4/127.0.0.1/tcp/5001",
      "Announce": [],
      "AppendAnnounce": [],
      "Gateway": "/ip4/127.0.0.1/tcp/8080",
      "NoAnnounce": [],
      "Swarm": [
        "/ip4/0.0.0.0/tcp/4001",
        "/ip6/::/tcp/4001",
        "/ip4/0.0.0.0/udp/4001/quic-v1",
        "/ip4/0.0.0.0/udp/4001/quic-v1/webtransport",
        "/ip6/::/udp/4001/quic-v1",
        "/ip6/::/udp/4001/quic-v1/webtransport"
      ]
    },
    "AutoNAT": {},
    "Bootstrap": [
      "/dnsaddr/bootstrap.libp2p.io/p2p/QmNnooDu7bfjPFoTZYxMNLWUQJyrVwtbZg5gBMjTezGAJN",
      "/dnsaddr/bootstrap.libp2p.io/p2p/QmQCU2EcMqAqQPR2i9bChDtGNJchTbq5TbXJJ16u19uLTa",
      "/ip4/104.131.131.82/tcp/4001/p2p/QmaCpDMGvV2BGHeYERUEnRQAwe3N8SzbUtfsmvsqQLuvuJ"
    ],
    "DNS": {
      "Resolvers": {}
    },
    "Datastore": {
      "BloomFilterSize": 0,
      "GCPeriod": "1h",
      "HashOnRead": false,
      "Spec": {
        "mounts": [
          {
            "child": {
              "path": "blocks",
              "shardFunc": "/repo/flatfs/shard/v1/next-to-last/2",
              "sync": true,
              "type": "flatfs"
            },
            "mountpoint": "/blocks",
            "prefix": "flatfs.datastore",
            "type": "measure"
          },
          {
            "child": {
              "compression": "none",
              "path": "datastore",
              "type": "levelds"
            },
            "mountpoint": "/",
            "prefix": "leveldb.datastore",
            "type": "measure"
          }
        ],
        "type": "mount"
      },
      "StorageGCWatermark": 90,
      "StorageMax": "10GB"
    },
    "Discovery": {
      "MDNS": {
        "Enabled": true
      }
    },
    "Experimental": {
      "FilestoreEnabled": false,
      "Libp2pStreamMounting": false,
      "OptimisticProvide": false,
      "OptimisticProvideJobsPoolSize": 0,
      "P2pHttpProxy": false,
      "StrategicProviding": false,
      "UrlstoreEnabled": false
    },
    "Gateway": {
      "DeserializedResponses": null,
      "HTTPHeaders": {
        "X-Note": ["caf\\u00e9 \\u003c\\u003e", "line\\nbreak"]
      },
      "NoDNSLink": false,
      "NoFetch": false,
      "PublicGateways": null,
      "RootRedirect": ""
    },
    "Identity": {
      "PeerID": "\(oldPeerID)",
      "PrivKey": "\(oldPrivKey)"
    },
    "Internal": {},
    "Ipns": {
      "RecordLifetime": "",
      "RepublishPeriod": "",
      "ResolveCacheSize": 128
    },
    "Migration": {
      "DownloadSources": [],
      "Keep": ""
    },
    "Mounts": {
      "FuseAllowOther": false,
      "IPFS": "/ipfs",
      "IPNS": "/ipns"
    },
    "Peering": {
      "Peers": null
    },
    "Pinning": {
      "RemoteServices": {}
    },
    "Plugins": {
      "Plugins": null
    },
    "Routing": {
      "AcceleratedDHTClient": false,
      "Methods": null,
      "Routers": null
    },
    "Swarm": {
      "AddrFilters": null,
      "ConnMgr": {
        "GracePeriod": "20s",
        "HighWater": 96,
        "LowWater": 32
      },
      "DisableBandwidthMetrics": false,
      "ResourceMgr": {
        "MaxMemory": 9007199254740993,
        "MaxFileDescriptors": -1,
        "Ratio": 0.5,
        "Scale": 1e3
      },
      "Transports": {
        "Multiplexers": {},
        "Network": {},
        "Security": {}
      }
    },
    "XFreedomUnknownSection": [[1, [2, [3, {"deep": [true, false, null]}]]]]
  }

  """

private func configError(_ body: () throws(KuboConfigError) -> Void) -> KuboConfigError? {
  do {
    try body()
    return nil
  } catch {
    return error
  }
}

private func setIdentity(_ config: String, peerID: String = newPeerID, privKey: String = newPrivKey)
  throws -> String
{
  let edited = try KuboConfig(json: Array(config.utf8)).settingIdentity(
    peerID: peerID, privateKey: SecureBytes(utf8: privKey))
  return edited.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
}

@Suite struct KuboConfigTests {
  @Test func readsTheIdentity() throws {
    let config = try KuboConfig(json: Array(realisticConfig.utf8))
    #expect(config.peerID == oldPeerID)
    #expect(config.privateKey == SecureBytes(utf8: oldPrivKey))
  }

  @Test func changesOnlyTheTwoValues() throws {
    let edited = try setIdentity(realisticConfig)
    let expected = realisticConfig.replacingOccurrences(of: oldPeerID, with: newPeerID)
      .replacingOccurrences(of: oldPrivKey, with: newPrivKey)
    #expect(edited == expected)
    #expect(edited.contains("\"MaxMemory\": 9007199254740993,"))
    let reread = try KuboConfig(json: Array(edited.utf8))
    #expect(reread.peerID == newPeerID)
    #expect(reread.privateKey == SecureBytes(utf8: newPrivKey))
  }

  /// Independently of the text comparison: every field of the parsed document is unchanged
  /// except the two identity values.
  @Test func everyOtherFieldSurvivesAParse() throws {
    let edited = try setIdentity(realisticConfig)
    let before = try #require(
      try JSONSerialization.jsonObject(with: Data(realisticConfig.utf8)) as? NSDictionary)
    let after = try #require(
      try JSONSerialization.jsonObject(with: Data(edited.utf8)) as? NSDictionary)
    #expect(before.allKeys.count == after.allKeys.count)
    let expected = before.mutableCopy() as! NSMutableDictionary
    expected["Identity"] = ["PeerID": newPeerID, "PrivKey": newPrivKey] as NSDictionary
    #expect(expected.isEqual(after))
  }

  @Test func settingTheSameIdentityIsIdempotent() throws {
    let once = try setIdentity(realisticConfig)
    #expect(try setIdentity(once) == once)
    #expect(
      try setIdentity(realisticConfig, peerID: oldPeerID, privKey: oldPrivKey) == realisticConfig)
  }

  @Test func insertsAMissingPrivKeyWithTheSameIndentation() throws {
    let config = "{\n  \"Identity\": {\n    \"PeerID\": \"\(oldPeerID)\"\n  },\n  \"Other\": 1\n}\n"
    #expect(
      try setIdentity(config)
        == "{\n  \"Identity\": {\n    \"PeerID\": \"\(newPeerID)\",\n    \"PrivKey\": \"\(newPrivKey)\"\n  },\n  \"Other\": 1\n}\n"
    )
  }

  @Test func insertsAMissingPeerID() throws {
    let config = "{\n  \"Identity\": {\n    \"PrivKey\": \"\(oldPrivKey)\"\n  }\n}"
    #expect(
      try setIdentity(config)
        == "{\n  \"Identity\": {\n    \"PeerID\": \"\(newPeerID)\",\n    \"PrivKey\": \"\(newPrivKey)\"\n  }\n}"
    )
  }

  @Test func fillsAnEmptyIdentity() throws {
    #expect(
      try setIdentity("{\n  \"Identity\": {},\n  \"A\": []\n}\n")
        == "{\n  \"Identity\": {\n    \"PeerID\": \"\(newPeerID)\",\n    \"PrivKey\": \"\(newPrivKey)\"\n  },\n  \"A\": []\n}\n"
    )
    #expect(
      try setIdentity("{\"Identity\":{}}")
        == "{\"Identity\":{ \"PeerID\": \"\(newPeerID)\", \"PrivKey\": \"\(newPrivKey)\" }}")
    #expect(
      try setIdentity("{\"Identity\":{\"X\":1}}")
        == "{\"Identity\":{\"PeerID\": \"\(newPeerID)\", \"PrivKey\": \"\(newPrivKey)\", \"X\":1}}")
  }

  @Test func compactConfig() throws {
    let config = "{\"Identity\":{\"PeerID\":\"a\",\"PrivKey\":\"b\"},\"N\":[0,1e3,-2.5]}"
    #expect(
      try setIdentity(config)
        == "{\"Identity\":{\"PeerID\":\"\(newPeerID)\",\"PrivKey\":\"\(newPrivKey)\"},\"N\":[0,1e3,-2.5]}"
    )
  }

  @Test func clearErrors() {
    #expect(
      configError { () throws(KuboConfigError) in
        _ = try KuboConfig(json: Array("{\"API\":{}}".utf8))
      } == .missingIdentity)
    #expect(
      configError { () throws(KuboConfigError) in
        _ = try KuboConfig(json: Array("{\"Identity\":[]}".utf8))
      } == .notAnObject("Identity"))
    #expect(
      configError { () throws(KuboConfigError) in
        _ = try KuboConfig(json: Array("{\"Identity\":{\"PeerID\":5}}".utf8))
      } == .notAString("Identity.PeerID"))
    #expect(
      configError { () throws(KuboConfigError) in
        _ = try KuboConfig(json: Array("{\"Identity\":{},\"Identity\":{}}".utf8))
      }
        == .invalidJSON(
          "invalid JSON at byte 15: the member \"Identity\" appears twice in one object"))
    #expect(
      configError { () throws(KuboConfigError) in
        _ = try KuboConfig(json: Array("{\"Identity\":{},\"identity\":{}}".utf8))
      } == .duplicateField("Identity"))
    #expect(
      configError { () throws(KuboConfigError) in
        _ = try KuboConfig(json: Array("{\"Identity\":{\"PrivKey\":\"SECRETSECRET\",}}".utf8))
      } == .invalidJSON("invalid JSON at byte 38: trailing comma before '}'"))
    #expect(KuboConfigError.invalidJSON("x").description == "the kubo config is not valid JSON (x)")
    #expect(
      configError { () throws(KuboConfigError) in _ = try KuboConfig(json: Array("[]".utf8)) }
        == .notAnObject("the top level"))
    let config = try? KuboConfig(json: Array(realisticConfig.utf8))
    #expect(
      configError { () throws(KuboConfigError) in
        _ = try config?.settingIdentity(peerID: "a\"b", privateKey: SecureBytes(utf8: "AAAA"))
      } == .invalidPeerID)
    #expect(
      configError { () throws(KuboConfigError) in
        _ = try config?.settingIdentity(peerID: "abc", privateKey: SecureBytes(utf8: "AA\"A"))
      } == .invalidPrivateKeyText)
    #expect(
      configError { () throws(KuboConfigError) in
        _ = try config?.settingIdentity(peerID: "abc", privateKey: SecureBytes(utf8: ""))
      } == .invalidPrivateKeyText)
    // Whitespace would break the JSON string; malformed base64 is not a key.
    for bad in ["AAAA\n", "AA AA", "AAA", "AA=A"] {
      #expect(
        configError { () throws(KuboConfigError) in
          _ = try config?.settingIdentity(peerID: "abc", privateKey: SecureBytes(utf8: bad))
        } == .invalidPrivateKeyText, "\(bad.debugDescription)")
    }
  }
}

/// Why the OpenCL engine cannot run: no loader, no platform or device, a driver that failed.
public enum OpenCLError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The ICD loader (`libOpenCL.so.1`) could not be opened.
  case loaderMissing
  /// The loader lacks a function the engine calls (an OpenCL before 1.2).
  case loaderIncomplete(function: String)
  /// The loader lists no platform: no driver (ICD) is installed.
  case noPlatform
  /// The platforms list no device, or none of the kind needed.
  case noDevice
  /// There is no device with this number (1-based); `count` devices there are.
  case noSuchDevice(number: Int, count: Int)
  /// An OpenCL call returned an error code.
  case callFailed(function: String, code: Int32)
  /// The driver could not build the kernels: the first line of its log.
  case buildFailed(log: String)
  /// The device computed a wrong PBKDF2 known answer, so it is not used.
  case selfTestFailed(device: String)

  public var description: String {
    switch self {
    case .loaderMissing:
      "the OpenCL loader libOpenCL.so.1 is not installed (Debian: ocl-icd-libopencl1)"
    case .loaderIncomplete(let function):
      "the OpenCL loader lacks \(function) (OpenCL 1.2 is needed)"
    case .noPlatform:
      "OpenCL has no platform: no driver is installed (a GPU's, or pocl-opencl-icd)"
    case .noDevice: "no OpenCL device is available"
    case .noSuchDevice(let number, let count):
      "there is no OpenCL device \(number): the devices are numbered 1 to \(count)"
    case .callFailed(let function, let code): "OpenCL's \(function) failed with error \(code)"
    case .buildFailed(let log): "the OpenCL driver could not build the PBKDF2 kernels: \(log)"
    case .selfTestFailed(let device):
      "the OpenCL device \(device) computed a wrong PBKDF2 known answer"
    }
  }
}

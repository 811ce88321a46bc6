internal import COpenCL
import SystemCalls

/// The OpenCL ICD loader (`libOpenCL.so.1`) opened with dlopen, never linked: the OpenCL 1.2
/// entry points the PBKDF2 engine calls, found once.
struct OpenCLLibrary: @unchecked Sendable {
  /// Debian's soname of the ICD loader (ocl-icd-libopencl1).
  static let sonames = ["libOpenCL.so.1"]

  let getPlatformIDs: fk_clGetPlatformIDs
  let getPlatformInfo: fk_clGetPlatformInfo
  let getDeviceIDs: fk_clGetDeviceIDs
  let getDeviceInfo: fk_clGetDeviceInfo
  let createContext: fk_clCreateContext
  let createCommandQueue: fk_clCreateCommandQueue
  let createProgramWithSource: fk_clCreateProgramWithSource
  let buildProgram: fk_clBuildProgram
  let getProgramBuildInfo: fk_clGetProgramBuildInfo
  let createKernel: fk_clCreateKernel
  let createBuffer: fk_clCreateBuffer
  let setKernelArg: fk_clSetKernelArg
  let enqueueWriteBuffer: fk_clEnqueueWriteBuffer
  let enqueueReadBuffer: fk_clEnqueueReadBuffer
  let enqueueFillBuffer: fk_clEnqueueFillBuffer
  let enqueueNDRangeKernel: fk_clEnqueueNDRangeKernel
  let finish: fk_clFinish
  let releaseMemObject: fk_clReleaseMemObject
  let releaseKernel: fk_clReleaseKernel
  let releaseProgram: fk_clReleaseProgram
  let releaseCommandQueue: fk_clReleaseCommandQueue

  /// The loader, or why it cannot be used; opened at first use.
  static let loaded: Result<OpenCLLibrary, OpenCLError> = load()

  private static func load() -> Result<OpenCLLibrary, OpenCLError> {
    guard let handle = Platform.openLibrary(sonames) else { return .failure(.loaderMissing) }
    func symbol<T>(_ name: String, as type: T.Type) throws(OpenCLError) -> T {
      guard let function = Platform.symbol(handle, name, as: type) else {
        throw .loaderIncomplete(function: name)
      }
      return function
    }
    do {
      return .success(
        OpenCLLibrary(
          getPlatformIDs: try symbol("clGetPlatformIDs", as: fk_clGetPlatformIDs.self),
          getPlatformInfo: try symbol("clGetPlatformInfo", as: fk_clGetPlatformInfo.self),
          getDeviceIDs: try symbol("clGetDeviceIDs", as: fk_clGetDeviceIDs.self),
          getDeviceInfo: try symbol("clGetDeviceInfo", as: fk_clGetDeviceInfo.self),
          createContext: try symbol("clCreateContext", as: fk_clCreateContext.self),
          createCommandQueue: try symbol(
            "clCreateCommandQueue", as: fk_clCreateCommandQueue.self),
          createProgramWithSource: try symbol(
            "clCreateProgramWithSource", as: fk_clCreateProgramWithSource.self),
          buildProgram: try symbol("clBuildProgram", as: fk_clBuildProgram.self),
          getProgramBuildInfo: try symbol(
            "clGetProgramBuildInfo", as: fk_clGetProgramBuildInfo.self),
          createKernel: try symbol("clCreateKernel", as: fk_clCreateKernel.self),
          createBuffer: try symbol("clCreateBuffer", as: fk_clCreateBuffer.self),
          setKernelArg: try symbol("clSetKernelArg", as: fk_clSetKernelArg.self),
          enqueueWriteBuffer: try symbol(
            "clEnqueueWriteBuffer", as: fk_clEnqueueWriteBuffer.self),
          enqueueReadBuffer: try symbol("clEnqueueReadBuffer", as: fk_clEnqueueReadBuffer.self),
          enqueueFillBuffer: try symbol("clEnqueueFillBuffer", as: fk_clEnqueueFillBuffer.self),
          enqueueNDRangeKernel: try symbol(
            "clEnqueueNDRangeKernel", as: fk_clEnqueueNDRangeKernel.self),
          finish: try symbol("clFinish", as: fk_clFinish.self),
          releaseMemObject: try symbol("clReleaseMemObject", as: fk_clReleaseMemObject.self),
          releaseKernel: try symbol("clReleaseKernel", as: fk_clReleaseKernel.self),
          releaseProgram: try symbol("clReleaseProgram", as: fk_clReleaseProgram.self),
          releaseCommandQueue: try symbol(
            "clReleaseCommandQueue", as: fk_clReleaseCommandQueue.self)))
    } catch {
      return .failure(error)
    }
  }

  /// Throws `callFailed` unless `code` is CL_SUCCESS.
  static func check(_ code: fk_cl_int, _ function: String) throws(OpenCLError) {
    guard code == FK_CL_SUCCESS else { throw .callFailed(function: function, code: code) }
  }

  // MARK: Devices

  /// Every device of every platform, in the loader's order, numbered from 1.
  func devices() throws(OpenCLError) -> [OpenCLDevice] {
    var platformCount: fk_cl_uint = 0
    let code = getPlatformIDs(0, nil, &platformCount)
    // The loader answers CL_PLATFORM_NOT_FOUND_KHR when no ICD file names a driver.
    guard code != FK_CL_PLATFORM_NOT_FOUND_KHR, platformCount > 0 else { throw .noPlatform }
    try Self.check(code, "clGetPlatformIDs")
    var platforms = [fk_cl_platform_id?](repeating: nil, count: Int(platformCount))
    try Self.check(getPlatformIDs(platformCount, &platforms, nil), "clGetPlatformIDs")
    var devices: [OpenCLDevice] = []
    for case let platform? in platforms {
      let platformName = text {
        getPlatformInfo(platform, fk_cl_uint(FK_CL_PLATFORM_NAME), $0, $1, $2)
      }
      var deviceCount: fk_cl_uint = 0
      let found = getDeviceIDs(platform, FK_CL_DEVICE_TYPE_ALL, 0, nil, &deviceCount)
      if found == FK_CL_DEVICE_NOT_FOUND || deviceCount == 0 { continue }
      try Self.check(found, "clGetDeviceIDs")
      var ids = [fk_cl_device_id?](repeating: nil, count: Int(deviceCount))
      try Self.check(
        getDeviceIDs(platform, FK_CL_DEVICE_TYPE_ALL, deviceCount, &ids, nil), "clGetDeviceIDs")
      for case let id? in ids {
        var type: fk_cl_bitfield = 0
        var units: fk_cl_uint = 0
        _ = getDeviceInfo(id, fk_cl_uint(FK_CL_DEVICE_TYPE), 8, &type, nil)
        _ = getDeviceInfo(id, fk_cl_uint(FK_CL_DEVICE_MAX_COMPUTE_UNITS), 4, &units, nil)
        devices.append(
          OpenCLDevice(
            number: devices.count + 1,
            name: text { getDeviceInfo(id, fk_cl_uint(FK_CL_DEVICE_NAME), $0, $1, $2) },
            platformName: platformName,
            isGPU: type & FK_CL_DEVICE_TYPE_GPU != 0,
            computeUnits: max(1, Int(units)), handle: UInt(bitPattern: UnsafeRawPointer(id))))
      }
    }
    guard !devices.isEmpty else { throw .noDevice }
    return devices
  }

  /// A string an info query returns, control characters replaced (driver text reaches a
  /// terminal).
  func text(
    _ query: (Int, UnsafeMutableRawPointer?, UnsafeMutablePointer<Int>?) -> fk_cl_int
  ) -> String {
    var size = 0
    guard query(0, nil, &size) == FK_CL_SUCCESS, size > 0 else { return "?" }
    var bytes = [UInt8](repeating: 0, count: size)
    guard query(size, &bytes, nil) == FK_CL_SUCCESS else { return "?" }
    return Self.printable(bytes.prefix { $0 != 0 })
  }

  /// `bytes` as UTF-8 with every control character a '?'.
  static func printable(_ bytes: some Sequence<UInt8>) -> String {
    String(decoding: Array(bytes), as: UTF8.self).unicodeScalars.map {
      $0.properties.generalCategory == .control ? "?" : String($0)
    }.joined().trimmingWhitespace()
  }
}

extension String {
  fileprivate func trimmingWhitespace() -> String {
    var text = Substring(self)
    while text.first?.isWhitespace == true { text.removeFirst() }
    while text.last?.isWhitespace == true { text.removeLast() }
    return String(text)
  }
}

/// An OpenCL device as the loader lists it: its number (1-based, over every platform), name,
/// platform and kind.
public struct OpenCLDevice: Sendable, Equatable, CustomStringConvertible {
  /// Its place in the list of every platform's devices, from 1.
  public let number: Int
  /// The driver's name for it ("NVIDIA GeForce RTX 4090", "pthread-skylake-…").
  public let name: String
  /// Its platform's name ("NVIDIA CUDA", "Portable Computing Language").
  public let platformName: String
  /// Whether the driver calls it a GPU (CL_DEVICE_TYPE_GPU).
  public let isGPU: Bool
  /// Its compute units (CL_DEVICE_MAX_COMPUTE_UNITS).
  public let computeUnits: Int
  /// The cl_device_id's bits.
  let handle: UInt

  /// "OpenCL device 1: NVIDIA GeForce RTX 4090 (NVIDIA CUDA, GPU, 128 compute units)".
  public var description: String {
    "OpenCL device \(number): \(name) (\(platformName), \(isGPU ? "GPU" : "not a GPU"), "
      + "\(computeUnits) compute unit\(computeUnits == 1 ? "" : "s"))"
  }

  /// Every OpenCL device here, or why there is none.
  public static func all() throws(OpenCLError) -> [OpenCLDevice] {
    try OpenCLLibrary.loaded.get().devices()
  }
}

import Effects

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// An append-only file, written one whole line per `write(2)` call.
///
/// A file it creates has owner-only permissions (0600). An existing file (or a device, such as
/// `/dev/null`) is truncated and written as it is, keeping its owner and mode: the log never
/// changes the permissions of, or deletes, a file it did not create. It is opened with
/// `O_APPEND`, and each line goes out in a single call with nothing buffered in the process,
/// so a crash loses at most the line being written.
///
/// A regular file is held by one `LogFile` at a time in a process: a second one for the same
/// file (by any path to it) is refused, before it truncates anything, until the first is
/// released or goes away. Two recorders writing one file would truncate each other's log and
/// interleave their lines. Across processes, the file is locked (`flock(2)`, exclusive) while
/// it is held: a recorder in another process is refused the same way.
final class LogFile {
  private let descriptor: Int32
  let path: String
  /// `path` from the root, as the working directory made it when the file was opened: what
  /// ``goneReason()`` looks at, whatever directory the process moves to since.
  let absolutePath: String
  /// Whether this object created the file, and so may delete it.
  let isCreated: Bool
  /// The file this object holds, if it is a regular file and not released yet.
  private var held: FileIdentity?

  /// The regular files held by `LogFile`s in this process.
  private static let heldFiles = Locked<Set<FileIdentity>>([])

  init(creating path: String) throws(ActionLogError) {
    if let reason = unusablePathReason(path) { throw .cannotWrite(path: path, reason: reason) }
    // Opened without blocking, whatever the path names: an `open` to write a FIFO otherwise
    // waits, for ever, for a process to read it, and a `stat` of the path before the `open`
    // would not see a FIFO put in its place in between. Cleared once open, so that every
    // write goes out whole.
    let flags = O_WRONLY | O_APPEND | O_CLOEXEC | O_NONBLOCK
    // Creating it exclusively tells whether the file is this log's own; if something is
    // there already, it is opened as it is (O_CREAT still covers a file removed in between,
    // or a symbolic link to a file not there yet, both created 0600 by the call), and
    // truncated only once it is known that no other log in this process holds it.
    var descriptor = open(path, flags | O_CREAT | O_EXCL, 0o600)
    isCreated = descriptor >= 0
    if descriptor < 0, errno == EEXIST {
      descriptor = open(path, flags | O_CREAT, 0o600)
    }
    guard descriptor >= 0 else {
      let error = errno
      throw .cannotWrite(
        path: path,
        // ENXIO on Linux; Darwin refuses a socket with EOPNOTSUPP.
        reason: error == ENXIO || error == EOPNOTSUPP
          ? Self.unopenedReason(path) ?? String(cString: strerror(error))
          : String(cString: strerror(error)))
    }
    let status = fcntl(descriptor, F_GETFL)
    guard status >= 0, fcntl(descriptor, F_SETFL, status & ~O_NONBLOCK) == 0 else {
      let reason = String(cString: strerror(errno))
      close(descriptor)
      if isCreated { _ = unlink(path) }
      throw .cannotWrite(path: path, reason: reason)
    }
    var info = stat()
    var identity: FileIdentity?
    if fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG {
      let file = FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
      guard Self.heldFiles.withLock({ $0.insert(file).inserted }) else {
        close(descriptor)
        throw .cannotWrite(
          path: path,
          reason: """
            another ActionLogRecorder in this process is writing this file; finish that \
            recorder first, or record to another path
            """)
      }
      // Another process recording to the file holds a lock on it (advisory: what other
      // programs write is not stopped). A file system without locks records unguarded.
      if flock(descriptor, LOCK_EX | LOCK_NB) != 0, errno == EWOULDBLOCK {
        Self.heldFiles.withLock { _ = $0.remove(file) }
        close(descriptor)
        throw .cannotWrite(
          path: path,
          reason: """
            another process is recording to this file (it holds a lock on it); wait for it to \
            finish, or record to another path
            """)
      }
      identity = file
      if !isCreated { _ = ftruncate(descriptor, 0) }
    }
    self.descriptor = descriptor
    self.path = path
    self.absolutePath = Self.absolute(path)
    self.held = identity
  }

  /// Why an `open` without blocking found nothing to write at `path` (`ENXIO`), when what the
  /// path names says: a named pipe that no process reads, or a socket. Read after the
  /// refusal, for its message alone: the `open` itself did not wait.
  private static func unopenedReason(_ path: String) -> String? {
    var named = stat()
    guard stat(path, &named) == 0 else { return nil }
    switch named.st_mode & S_IFMT {
    case S_IFIFO:
      return """
        it is a named pipe (FIFO) that no process reads; start the process that reads it \
        first, or record to a file
        """
    case S_IFSOCK:
      return "it is a socket, which cannot be opened as a file; record to a file"
    default:
      return nil
    }
  }

  /// Lets another log write the file: called when nothing more will be written.
  func release() {
    guard let file = held else { return }
    held = nil
    _ = flock(descriptor, LOCK_UN)
    _ = Self.heldFiles.withLock { $0.remove(file) }
  }

  deinit {
    release()
    close(descriptor)
  }

  /// Deletes the file if this object created it (it stays open until this object goes
  /// away); a file that was there before is left where it is.
  func deleteIfCreated() {
    guard isCreated else { return }
    _ = unlink(path)
  }

  /// Why the regular file this object writes is no longer at its path, if it is not: it was
  /// moved or removed (nothing has its name), or replaced (something else has it); `nil`
  /// while the path still names it, and for anything but a regular file (a device, a pipe).
  func goneReason() -> String? {
    var opened = stat()
    guard fstat(descriptor, &opened) == 0, opened.st_mode & S_IFMT == S_IFREG else { return nil }
    var named = stat()
    guard stat(absolutePath, &named) == 0 else {
      return errno == ENOENT ? "the file was moved or removed" : nil
    }
    return named.st_dev == opened.st_dev && named.st_ino == opened.st_ino
      ? nil : "the file was replaced"
  }

  /// `path` from the root: itself if it starts with `/`, else under the working directory.
  private static func absolute(_ path: String) -> String {
    guard !path.hasPrefix("/"), let directory = getcwd(nil, 0) else { return path }
    defer { free(directory) }
    return String(cString: directory) + "/" + path
  }

  /// Writes `line` and a newline.
  func write(line: [UInt8]) throws(ActionLogError) {
    var bytes = line
    bytes.append(UInt8(ascii: "\n"))
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeBytes { buffer in
        #if canImport(Darwin)
          Darwin.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
        #elseif canImport(Glibc)
          Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
        #else
          Musl.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
        #endif
      }
      if written < 0 {
        if errno == EINTR { continue }
        let reason = String(cString: strerror(errno))
        if offset > 0 { removeLast(bytes: offset) }
        throw .cannotWrite(path: path, reason: reason)
      }
      offset += written
    }
  }

  /// Takes back the last `count` bytes of a regular file: the part of a line whose write
  /// failed midway (the disk filled up), so that the log still ends with a whole line, and a
  /// line written after it (the line saying why the recording stopped) starts a line of its
  /// own. The file is opened to append and written by this object alone: the part written
  /// is at its end.
  private func removeLast(bytes count: Int) {
    var info = stat()
    guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return }
    _ = ftruncate(descriptor, info.st_size - off_t(count))
  }
}

/// A file, whatever the path to it.
private struct FileIdentity: Hashable, Sendable {
  var device: UInt64
  var inode: UInt64
}

/// Reads a file line by line through a fixed buffer: memory stays constant however long the
/// file, and a line longer than the limit is reported as soon as the limit is passed, without
/// reading on to its end (an endless line, as from `/dev/zero`, has none).
final class LineReader {
  enum Line {
    /// A complete line (without its newline), numbered from 1.
    case complete(Data, number: Int)
    /// The last line, which has no newline: the file was cut while it was being written.
    case truncated(Data, number: Int)
    /// A line longer than the limit. Reading stops there: the next call returns `nil`.
    case tooLong(number: Int)
  }

  private let descriptor: Int32
  private let path: String
  private var buffer: [UInt8]
  private var start = 0
  private var end = 0
  /// Where to look for the next newline: bytes before it have been searched already.
  private var searched = 0
  private var isAtEnd = false
  private var lineNumber = 0
  private let limit: Int
  /// Whether the file is a regular file, which can be opened and read again from its start;
  /// a pipe, a FIFO or a terminal gives its lines once (and a FIFO's `open` waits for a
  /// writer).
  let isRegularFile: Bool

  init(path: String, limit: Int) throws(ActionLogError) {
    if let reason = unusablePathReason(path) { throw .cannotRead(path: path, reason: reason) }
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      throw .cannotRead(path: path, reason: String(cString: strerror(errno)))
    }
    // A directory opens for reading on Linux, and then fails to read: say so at once.
    var status = stat()
    let hasStatus = fstat(descriptor, &status) == 0
    if hasStatus, status.st_mode & S_IFMT == S_IFDIR {
      close(descriptor)
      throw .cannotRead(path: path, reason: "it is a directory, not a log file")
    }
    self.isRegularFile = hasStatus && status.st_mode & S_IFMT == S_IFREG
    self.descriptor = descriptor
    self.path = path
    self.limit = limit
    self.buffer = [UInt8](repeating: 0, count: 1 << 16)
  }

  deinit {
    close(descriptor)
  }

  /// The next line, or `nil` at the end of the file (or after a line that was too long).
  ///
  /// - Throws: ``ActionLogError/cannotRead(path:reason:)`` when reading fails, naming the
  ///   line it was reading.
  func next() throws(ActionLogError) -> Line? {
    while true {
      if let newline = firstNewline(from: max(start, searched)) {
        lineNumber += 1
        if isPastLimit(start..<newline) { return tooLong() }
        defer {
          start = newline + 1
          searched = start
        }
        return .complete(Data(buffer[start..<newline]), number: lineNumber)
      }
      searched = end
      // No newline in more than the limit and a carriage return: the line is too long,
      // wherever it ends (if it does).
      if end - start > limit + 1 {
        lineNumber += 1
        return tooLong()
      }
      if isAtEnd {
        guard start < end else { return nil }
        lineNumber += 1
        if isPastLimit(start..<end) { return tooLong() }
        defer { start = end }
        return .truncated(Data(buffer[start..<end]), number: lineNumber)
      }
      try compactAndFill()
    }
  }

  /// The index of the first newline in `buffer[from..<end]`, if any (`memchr` keeps a search
  /// through megabytes quick in a debug build too).
  private func firstNewline(from: Int) -> Int? {
    guard from < end else { return nil }
    return buffer.withUnsafeBufferPointer { bytes in
      memchr(bytes.baseAddress! + from, Int32(UInt8(ascii: "\n")), end - from).map {
        bytes.baseAddress!.distance(to: $0.assumingMemoryBound(to: UInt8.self))
      }
    }
  }

  /// Whether the line in `bytes` is longer than the limit. A carriage return ending it does
  /// not count: it is the first half of a CRLF line end (a log copied through a Windows
  /// tool), and a line of the limit written by the recorder stays readable in such a copy.
  private func isPastLimit(_ bytes: Range<Int>) -> Bool {
    bytes.count > limit
      && !(bytes.count == limit + 1 && buffer[bytes.upperBound - 1] == UInt8(ascii: "\r"))
  }

  /// Reports the current line as too long, and stops reading.
  private func tooLong() -> Line {
    isAtEnd = true
    start = 0
    end = 0
    searched = 0
    return .tooLong(number: lineNumber)
  }

  private func compactAndFill() throws(ActionLogError) {
    if start > 0 {
      buffer.replaceSubrange(0..<(end - start), with: buffer[start..<end])
      searched -= start
      end -= start
      start = 0
    }
    if end == buffer.count { buffer += [UInt8](repeating: 0, count: buffer.count) }
    let count = buffer.withUnsafeMutableBytes { raw in
      read(descriptor, raw.baseAddress! + end, raw.count - end)
    }
    if count < 0 {
      if errno == EINTR { return }
      throw .cannotRead(
        path: path, reason: "line \(lineNumber + 1): \(String(cString: strerror(errno)))")
    } else if count == 0 {
      isAtEnd = true
    } else {
      end += count
    }
  }
}

/// Why `path` can name no file, or `nil`: a NUL character ends a path where the system reads
/// it, so `"logs/a\0b"` would open `logs/a` (a path made by joining a name read from
/// elsewhere, say).
func unusablePathReason(_ path: String) -> String? {
  guard path.utf8.contains(0) else { return nil }
  return "the path holds a NUL character, which ends a path where the system reads it"
}

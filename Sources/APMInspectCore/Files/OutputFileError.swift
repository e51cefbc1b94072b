/// Why a file the user named for output was not written; the old file at that path, if any, is as it was.
package struct OutputFileError: Error, Sendable, Equatable, CustomStringConvertible {
    package enum Kind: Sendable, Equatable {
        /// The path leads to a file the command reads (same device and inode, whatever the spelling).
        case sameAsInput
        /// The path itself is a symbolic link: it is neither followed nor replaced.
        case symbolicLink
        /// The path is a folder.
        case folder
        /// A system call failed (the folder cannot be written, the disk is full…); ``errorNumber`` says which.
        case system
    }

    package var kind: Kind
    /// The reason in words, without the path (callers name it, escaped, in their own line).
    package var message: String
    /// The `errno` of a failed system call.
    package var errorNumber: Int32?

    package init(_ kind: Kind, _ message: String, errorNumber: Int32? = nil) {
        self.kind = kind
        self.message = message
        self.errorNumber = errorNumber
    }

    /// True when the path was refused before anything was tried (an input, a link, a folder).
    package var isRefusal: Bool { kind != .system }

    package var description: String { message }
}

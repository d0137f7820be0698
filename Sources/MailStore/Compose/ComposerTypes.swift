import MessageComposer

/// MessageComposer's attachment type, named apart from the event model's `DraftAttachment`.
typealias ComposerAttachment = DraftAttachment

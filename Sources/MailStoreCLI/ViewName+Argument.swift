import ArgumentParser
import MailStore

/// `--view` takes a view by name; an unknown name is a usage error listing the views.
extension ViewName: ExpressibleByArgument {}

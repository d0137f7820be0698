// libxml2's tree parser, for account discovery's autoconfig documents (SyncCore's AutoconfigParser).
#include <libxml/xmlversion.h>
// Debian builds libxml2 with ICU, so its encoding header includes ICU's, whose enums clash with the ICU Foundation
// bundles (_FoundationICU) in one Swift module. Nothing here uses ICU's converters: only pointers to the encoding
// handler (whose last fields ICU adds) appear in the types read.
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/tree.h>

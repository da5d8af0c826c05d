// The Clang front end of bsongen-scan: parse the headers, find the BSONGEN_DOCUMENT structs, map
// every member type to the intermediate model, report what cannot be mapped at file:line:col.
//
// Types are matched on their canonical form (typedefs and aliases resolved) and on qualified names
// with inline namespaces skipped, so `std::__cxx11::basic_string` (libstdc++) and
// `std::__1::basic_string` (libc++) are both `std::basic_string`.

#include "scan_headers.hpp"

#include <clang/AST/ASTConsumer.h>
#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/AST/RawCommentList.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendAction.h>
#include <clang/Sema/Sema.h>
#include <clang/Sema/SemaConsumer.h>
#include <clang/Tooling/Tooling.h>
#include <llvm/Support/ConvertUTF.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>

#include <algorithm>
#include <map>
#include <set>
#include <string_view>
#include <utility>

#include "type_catalog.hpp"

namespace bsongen::scan {
namespace {

// The markers of annotate.hpp, as (name, value) pairs with the "bsongen:" prefix removed.
struct marker {
  std::string name;
  std::string value;
  const clang::AnnotateAttr* attr;
};

std::vector<marker> markers_of(const clang::Decl* decl) {
  std::vector<marker> out;
  for (const auto* attr : decl->specific_attrs<clang::AnnotateAttr>()) {
    llvm::StringRef text = attr->getAnnotation();
    if (!text.consume_front("bsongen:")) continue;
    auto [name, value] = text.split('=');
    out.push_back({name.str(), value.str(), attr});
  }
  return out;
}

// BSON keys and strings are UTF-8; a marker's string is the header's bytes, whatever its encoding.
bool valid_utf8(std::string_view text) {
  const auto* begin = reinterpret_cast<const llvm::UTF8*>(text.data());
  return llvm::isLegalUTF8String(&begin, begin + text.size()) != 0;
}

bool has_marker(const clang::Decl* decl, std::string_view name) {
  for (const auto& m : markers_of(decl))
    if (m.name == name) return true;
  return false;
}

// "std::chrono::system_clock" for std::chrono::_V2::system_clock: inline namespaces are skipped
// because they are an implementation detail of the standard library's ABI.
std::string name_without_inline_namespaces(const clang::NamedDecl* decl) {
  std::vector<std::string> parts{decl->getNameAsString()};
  for (const clang::DeclContext* ctx = decl->getDeclContext(); ctx != nullptr;
       ctx = ctx->getParent()) {
    if (const auto* ns = llvm::dyn_cast<clang::NamespaceDecl>(ctx)) {
      if (ns->isInline()) continue;
      parts.push_back(ns->isAnonymousNamespace() ? "(anonymous namespace)" : ns->getNameAsString());
    } else if (const auto* record = llvm::dyn_cast<clang::RecordDecl>(ctx)) {
      parts.push_back(record->getNameAsString());
    }
  }
  std::string out;
  for (auto it = parts.rbegin(); it != parts.rend(); ++it) {
    if (!out.empty()) out += "::";
    out += *it;
  }
  return out;
}

const clang::ClassTemplateSpecializationDecl* specialization_of(clang::QualType type) {
  return llvm::dyn_cast_or_null<clang::ClassTemplateSpecializationDecl>(type->getAsCXXRecordDecl());
}

// The namespace a declaration is written in ("a::b", inline namespaces included because user code
// may name them); nullopt when it is not at namespace scope.
std::optional<std::string> enclosing_namespace(const clang::Decl* decl) {
  std::vector<std::string> parts;
  for (const clang::DeclContext* ctx = decl->getDeclContext(); ctx != nullptr;
       ctx = ctx->getParent()) {
    if (llvm::isa<clang::TranslationUnitDecl>(ctx)) break;
    if (llvm::isa<clang::LinkageSpecDecl>(ctx)) continue;
    const auto* ns = llvm::dyn_cast<clang::NamespaceDecl>(ctx);
    if (ns == nullptr || ns->isAnonymousNamespace()) return std::nullopt;
    parts.push_back(ns->getNameAsString());
  }
  std::string out;
  for (auto it = parts.rbegin(); it != parts.rend(); ++it) {
    if (!out.empty()) out += "::";
    out += *it;
  }
  return out;
}

// The kinds, their C++ spellings, emptiability and limits: the generator's type catalogue.
const type_catalog& catalog() { return type_catalog::built_in(); }

// What mapping one (sub)type produced: the model reference and the exact C++ spelling of the type,
// from which the enclosing type composes its own spelling.
struct mapped_type {
  type_ref ref;
  std::string spelling;
};

// Why a (sub)type could not be mapped; `type` is the offending part of the member's type.
struct mapping_error {
  clang::QualType type;
  std::string reason;
};

class model_builder {
 public:
  model_builder(clang::ASTContext& context, clang::Sema& sema,
                std::vector<const clang::FileEntry*> header_files, scan_result& result)
      : context_(context),
        sema_(sema),
        sources_(context.getSourceManager()),
        diagnostics_(context.getDiagnostics()),
        header_files_(std::move(header_files)),
        result_(result) {}

  void add_document_from_header(const clang::CXXRecordDecl* record) {
    const clang::FileEntry* file = sources_.getFileEntryForID(
        sources_.getFileID(sources_.getExpansionLoc(record->getLocation())));
    if (std::find(header_files_.begin(), header_files_.end(), file) == header_files_.end()) return;
    add_document(record);
  }

  // Enums in declaration order, as the model asks.
  void finish() {
    std::sort(enum_decls_.begin(), enum_decls_.end(), [this](const auto& a, const auto& b) {
      return sources_.isBeforeInTranslationUnit(a.first->getLocation(), b.first->getLocation());
    });
    for (auto& [decl, enumeration] : enum_decls_) result_.enums.push_back(std::move(enumeration));
    if (!namespace_) namespace_ = "";
    result_.namespace_ = *namespace_;
  }

 private:
  // Reported through Clang's engine so they print like its own (file:line:col, source line,
  // caret) and count towards the exit status.
  template <std::size_t N>
  clang::DiagnosticBuilder error(clang::SourceLocation where, const char (&format)[N]) {
    return diagnostics_.Report(
        where, diagnostics_.getCustomDiagID(clang::DiagnosticsEngine::Error, format));
  }
  template <std::size_t N>
  clang::DiagnosticBuilder warning(clang::SourceLocation where, const char (&format)[N]) {
    return diagnostics_.Report(
        where, diagnostics_.getCustomDiagID(clang::DiagnosticsEngine::Warning, format));
  }
  template <std::size_t N>
  clang::DiagnosticBuilder note(clang::SourceLocation where, const char (&format)[N]) {
    return diagnostics_.Report(
        where, diagnostics_.getCustomDiagID(clang::DiagnosticsEngine::Note, format));
  }

  // A marker given twice is an error (which of two keys would the user mean?).
  bool markers_unique(const std::vector<marker>& markers) {
    std::set<std::string, std::less<>> seen;
    bool ok = true;
    for (const auto& m : markers) {
      if (!seen.insert(m.name).second) {
        error(m.attr->getLocation(), "marker 'bsongen:%0' is given twice") << m.name;
        ok = false;
      }
    }
    return ok;
  }

  source_location location_of(const clang::Decl* decl) const {
    return location_of(decl->getLocation());
  }
  source_location location_of(clang::SourceLocation where) const {
    clang::PresumedLoc presumed = sources_.getPresumedLoc(sources_.getExpansionLoc(where));
    if (presumed.isInvalid()) return {};
    llvm::StringRef file = presumed.getFilename();
    file.consume_front("./");  // headers found beside the command line's input
    return {file.str(), presumed.getLine(), presumed.getColumn()};
  }

  std::string doc_of(const clang::Decl* decl) const {
    const clang::RawComment* comment = context_.getRawCommentForDeclNoCache(decl);
    if (comment == nullptr) return {};
    return comment->getFormattedText(sources_, diagnostics_);
  }

  // Every struct and enum of a model shares the model's one namespace.
  bool check_namespace(const clang::NamedDecl* decl, std::string_view what) {
    std::optional<std::string> ns = enclosing_namespace(decl);
    if (!ns) {
      error(decl->getLocation(),
            "%0 '%1' must be declared at namespace scope (not in a class, function or anonymous "
            "namespace): the model names it by namespace and identifier")
          << what.data() << decl->getQualifiedNameAsString();
      return false;
    }
    if (!namespace_) {
      namespace_ = *ns;
      namespace_origin_ = decl;
      return true;
    }
    if (*namespace_ != *ns) {
      error(
          decl->getLocation(),
          "%0 '%1' is in namespace '%2' but the model's namespace is '%3': every document and enum "
          "of one scan must share a namespace")
          << what.data() << decl->getQualifiedNameAsString() << *ns << *namespace_;
      note(namespace_origin_->getLocation(), "namespace '%0' taken from '%1' here")
          << *namespace_ << namespace_origin_->getQualifiedNameAsString();
      return false;
    }
    return true;
  }

  // Adds a document (and first every document it contains), once.
  void add_document(const clang::CXXRecordDecl* record) {
    record = record->getDefinition();
    if (record == nullptr || record->isInvalidDecl()) return;
    if (!document_state_.try_emplace(record, state::in_progress).second) return;
    structure built;
    const bool ok = build_document(record, built);
    // Looked up again: building nested documents inserted into the map.
    document_state_[record] = ok ? state::done : state::failed;
    if (ok) result_.structs.push_back(std::move(built));
  }

  // Generated decoders create a struct value-initialized (`T()`, by bsongen::decode<T> and for
  // every element of a vector, map or optional of it) and destroy it: both must be accessible.
  // Sema answers as overload resolution would, declaring implicit members on the way (a member
  // that cannot be default-constructed, BSONGEN_IGNORE'd or not, deletes the implicit one).
  bool check_lifetime(const clang::CXXRecordDecl* record, const std::string& qualified) {
    auto* mutable_record = const_cast<clang::CXXRecordDecl*>(record);  // Sema declares members
    const clang::CXXConstructorDecl* ctor = sema_.LookupDefaultConstructor(mutable_record);
    const char* problem = nullptr;
    if (ctor == nullptr)
      problem = "it has no constructor callable without arguments";
    else if (ctor->isDeleted() && ctor->isImplicit())
      problem =
          "its implicit default constructor is deleted (a member cannot be "
          "default-constructed)";
    else if (ctor->isDeleted())
      problem = "its default constructor is deleted";
    else if (ctor->getAccess() != clang::AS_public)
      problem = "its default constructor is not public";
    if (problem != nullptr) {
      error(ctor != nullptr && !ctor->isImplicit() ? ctor->getLocation() : record->getLocation(),
            "BSONGEN_DOCUMENT '%0' is not default-constructible: %1; decoding creates it as "
            "'%2()' before reading the fields, so give it a public default constructor")
          << qualified << problem << record->getNameAsString();
      return false;
    }
    const clang::CXXDestructorDecl* destructor = sema_.LookupDestructor(mutable_record);
    if (destructor == nullptr || destructor->isDeleted() ||
        destructor->getAccess() != clang::AS_public) {
      error(destructor != nullptr && !destructor->isImplicit() ? destructor->getLocation()
                                                               : record->getLocation(),
            "BSONGEN_DOCUMENT '%0' has a deleted or non-public destructor: decoded values must "
            "be destroyed")
          << qualified;
      return false;
    }
    return true;
  }

  // An enum member the struct does not initialize is 0 in a new struct and after decoding a
  // document without it: when 0 names no enumerator, encode refuses that value. Legal C++ and
  // fine while the key is always present, so a warning rather than an error.
  void warn_if_zero_is_no_enumerator(const clang::FieldDecl* member, const field& built,
                                     const std::string& qualified) {
    if (built.struct_default || built.required) return;
    const auto* enum_type = member->getType().getCanonicalType()->getAs<clang::EnumType>();
    const clang::EnumDecl* decl =
        enum_type != nullptr ? enum_type->getDecl()->getDefinition() : nullptr;
    if (decl == nullptr || enum_name_decl(decl) == nullptr) return;
    for (const clang::EnumConstantDecl* constant : decl->enumerators())
      if (constant->getInitVal() == 0) return;
    warning(member->getLocation(),
            "field '%0' of '%1' has no initializer and enum '%2' has no enumerator for 0: a new "
            "'%3', or one decoded from a document without '%4', holds 0 there, which encode "
            "refuses; give the member an initializer or mark it BSONGEN_REQUIRED")
        << built.name << qualified << enum_name_decl(decl)->getQualifiedNameAsString()
        << member->getParent()->getNameAsString() << built.key;
  }

  bool build_document(const clang::CXXRecordDecl* record, structure& out) {
    const std::string qualified = record->getQualifiedNameAsString();
    if (record->getIdentifier() == nullptr) {
      error(record->getLocation(), "a BSONGEN_DOCUMENT struct needs a name");
      return false;
    }
    if (record->isUnion()) {
      error(record->getLocation(), "union '%0' cannot be a BSONGEN_DOCUMENT") << qualified;
      return false;
    }
    if (record->isTemplated() || llvm::isa<clang::ClassTemplateSpecializationDecl>(record)) {
      error(record->getLocation(),
            "class template '%0' cannot be a BSONGEN_DOCUMENT: mark a non-template struct")
          << qualified;
      return false;
    }
    if (!check_namespace(record, "document")) return false;
    bool ok = true;
    if (record->getNumBases() != 0) {
      error(record->bases_begin()->getBeginLoc(),
            "BSONGEN_DOCUMENT '%0' has a base class: bsongen maps the members of one struct; "
            "make the base a member instead")
          << qualified;
      ok = false;
    }
    if (!check_lifetime(record, qualified)) ok = false;
    // The struct decides its members' initial values (not bsongen): its constructor, when the
    // user wrote one, may set any member.
    const bool user_constructor = record->hasUserProvidedDefaultConstructor();

    out.name = record->getNameAsString();
    out.doc = doc_of(record);
    out.location = location_of(record);
    bool explicit_unknown_fields = false;
    const std::vector<marker> record_markers = markers_of(record);
    if (!markers_unique(record_markers)) ok = false;
    for (const auto& m : record_markers) {
      if (m.name == "document") continue;
      if (m.name == "unknown_fields" && (m.value == "skip" || m.value == "reject")) {
        out.unknown_fields = m.value;
        explicit_unknown_fields = true;
      } else if (m.name == "duplicate_keys" && (m.value == "last_wins" || m.value == "reject")) {
        out.duplicate_keys = m.value;
      } else if (m.name == "unknown_fields" || m.name == "duplicate_keys") {
        error(m.attr->getLocation(), "BSONGEN_%0(%1) on '%2': expected %3")
            << llvm::StringRef(m.name).upper() << m.value << qualified
            << (m.name == "unknown_fields" ? "skip or reject (capture: mark a member "
                                             "BSONGEN_CAPTURE_UNKNOWN)"
                                           : "last_wins or reject");
        ok = false;
      } else {
        error(m.attr->getLocation(), "marker 'bsongen:%0' does not apply to a struct") << m.name;
        ok = false;
      }
    }

    for (const clang::FieldDecl* member : record->fields()) {
      if (member->isInvalidDecl()) {
        ok = false;
        continue;
      }
      const std::vector<marker> member_markers = markers_of(member);
      if (!markers_unique(member_markers)) {
        ok = false;
        continue;
      }
      if (std::any_of(member_markers.begin(), member_markers.end(),
                      [](const marker& m) { return m.name == "ignore"; }))
        continue;
      if (member->getIdentifier() == nullptr) {
        error(member->getLocation(),
              "BSONGEN_DOCUMENT '%0' has an anonymous struct or union member: give it a name and "
              "a BSONGEN_DOCUMENT type, or mark it BSONGEN_IGNORE")
            << qualified;
        ok = false;
        continue;
      }
      const std::string member_name = member->getNameAsString();
      if (member->getAccess() != clang::AS_public) {
        error(member->getLocation(),
              "field '%0' of '%1' (type %2) is %3: generated code cannot reach it; make it public "
              "or mark it BSONGEN_IGNORE")
            << member_name << qualified << member->getType()
            << (member->getAccess() == clang::AS_private ? "private" : "protected");
        ok = false;
        continue;
      }
      if (member->isBitField()) {
        error(member->getLocation(),
              "field '%0' of '%1' (type %2) is a bit-field, which bsongen "
              "cannot map (no reference to it can be taken)")
            << member_name << qualified << member->getType();
        ok = false;
        continue;
      }
      if (member->getType().isConstQualified()) {
        error(member->getLocation(),
              "field '%0' of '%1' (type %2) is const: decoding could not assign it")
            << member_name << qualified << member->getType();
        ok = false;
        continue;
      }

      field built;
      built.name = member_name;
      built.key = member_name;
      built.struct_default = user_constructor || member->hasInClassInitializer();
      built.doc = doc_of(member);
      built.location = location_of(member);
      std::string as_kind;
      bool capture = false;
      bool member_ok = true;
      for (const auto& m : member_markers) {
        if (m.name == "key") {
          // What a key may be (not empty, no NUL, no repeats) is the generator's rule, checked
          // at key_location; only bytes the model cannot carry are refused here.
          built.key = m.value;
          built.key_location = location_of(m.attr->getLocation());
          if (!valid_utf8(built.key)) {
            error(m.attr->getLocation(),
                  "BSON key of field '%0' of '%1' is not valid UTF-8 (BSON keys are UTF-8): save "
                  "the header as UTF-8 or spell the key with \\u escapes")
                << member_name << qualified;
            member_ok = false;
          }
        } else if (m.name == "required") {
          built.required = true;
        } else if (m.name == "omit_empty") {
          built.omit_empty = true;
        } else if (m.name == "capture_unknown") {
          capture = true;
        } else if (m.name == "as" &&
                   (catalog().scalar(m.value) != nullptr || m.value == catalog().vector_kind())) {
          as_kind = m.value;
        } else if (m.name == "as") {
          error(m.attr->getLocation(),
                "BSONGEN_AS(%0) on field '%1': '%0' is not a scalar kind of the type catalogue "
                "(generator/bsongen_gen/catalog.py) nor binary_vector")
              << m.value << member_name;
          member_ok = false;
        } else {
          error(m.attr->getLocation(), "marker 'bsongen:%0' does not apply to a member") << m.name;
          member_ok = false;
        }
      }
      if (!member_ok) {
        ok = false;
        continue;
      }

      std::optional<mapping_error> failure;
      std::optional<mapped_type> mapped = map_type(member->getType(), as_kind, failure);
      if (!mapped) {
        if (failure && failure->type.getCanonicalType() == member->getType().getCanonicalType()) {
          error(member->getLocation(), "field '%0' of '%1' has unsupported type %2: %3")
              << member_name << qualified << member->getType() << failure->reason;
        } else if (failure) {
          error(member->getLocation(), "field '%0' of '%1' has unsupported type %2: in %3: %4")
              << member_name << qualified << member->getType() << failure->type << failure->reason;
        } else {  // every mapping failure states its reason; this keeps a gap from going silent
          error(member->getLocation(), "field '%0' of '%1' has unsupported type %2")
              << member_name << qualified << member->getType();
        }
        ok = false;
        continue;
      }
      built.type = std::move(mapped->ref);

      if (capture) {
        if (built.type.kind != "raw_document") {
          error(member->getLocation(),
                "BSONGEN_CAPTURE_UNKNOWN field '%0' of '%1' has type %2; it must be "
                "bsongen::raw_document or bsongen::pmr::raw_document")
              << member_name << qualified << member->getType();
          ok = false;
        } else if (out.capture_member) {
          error(member->getLocation(), "'%0' has a second BSONGEN_CAPTURE_UNKNOWN member '%1'")
              << qualified << member_name;
          ok = false;
        } else if (explicit_unknown_fields) {
          error(member->getLocation(),
                "'%0' captures unknown fields in '%1' and also sets BSONGEN_UNKNOWN_FIELDS(%2)")
              << qualified << member_name << out.unknown_fields;
          ok = false;
        } else {
          out.unknown_fields = "capture";
          out.capture_member = member_name;
        }
        continue;  // the capture member is not a field of the document
      }
      // The schema rules (required with optional, omit_empty on a type that cannot be empty,
      // repeated keys, ...) are the generator's linker's, for both front ends: it reports them
      // at the locations the model carries.
      warn_if_zero_is_no_enumerator(member, built, qualified);
      out.fields.push_back(std::move(built));
    }
    return ok;
  }

  // Maps one member type (or a part of it). On failure returns nullopt and says which part failed
  // and why. `as_kind` (BSONGEN_AS) applies to the type under any std::optional: a member whose
  // C++ type is that kind's default (std::string for javascript, std::array<std::uint8_t, 16> for
  // uuid) maps to it instead of the type's own kind.
  std::optional<mapped_type> map_type(clang::QualType written, const std::string& as_kind,
                                      std::optional<mapping_error>& failure,
                                      bool outermost = true) {
    clang::QualType type = written.getCanonicalType();
    auto fail = [&](std::string reason) -> std::optional<mapped_type> {
      failure = mapping_error{written, std::move(reason)};
      return std::nullopt;
    };
    if (type.isVolatileQualified()) return fail("volatile members are not supported");
    type = type.getUnqualifiedType();

    if (as_kind == catalog().vector_kind() && !is_optional(type)) return map_vector(type, fail);
    if (!as_kind.empty() && !is_optional(type)) {
      const scalar_kind* target = catalog().scalar(as_kind);  // checked with the marker
      std::optional<mapping_error> own_failure;
      std::optional<mapped_type> own = map_type(written, "", own_failure, outermost);
      // The kind's default type, or its std::pmr spelling (kept in `cpp`).
      const bool pmr = own && !target->pmr_cpp.empty() && own->spelling == target->pmr_cpp;
      if (!own || (own->spelling != target->cpp && !pmr)) {
        return fail("BSONGEN_AS(" + as_kind + ") needs a " + target->cpp +
                    (target->pmr_cpp.empty() ? "" : " or " + target->pmr_cpp) + " member");
      }
      return mapped_type{{target->kind, pmr ? own->spelling : "", "", 0, {}, {}},
                         std::move(own->spelling)};
    }

    if (type->isReferenceType()) return fail("references are not supported; store the value");
    if (type->isPointerType() || type->isMemberPointerType())
      return fail("pointers are not supported; store the value (std::optional for absence)");
    if (const clang::ArrayType* array = context_.getAsArrayType(type)) {
      const clang::QualType element = array->getElementType().getCanonicalType();
      if (element->isSpecificBuiltinType(clang::BuiltinType::Char_S) ||
          element->isSpecificBuiltinType(clang::BuiltinType::Char_U))
        return fail("C arrays are not supported; use std::string for text (a BSON string)");
      return fail("C arrays are not supported; use std::array");
    }

    if (const auto* enum_type = type->getAs<clang::EnumType>()) {
      const clang::EnumDecl* decl = enum_type->getDecl()->getDefinition();
      if (decl == nullptr) return fail("the enum is declared but not defined");
      const clang::NamedDecl* named = enum_name_decl(decl);
      if (named == nullptr)
        return fail("an enum without a name cannot be named in the model; name it");
      if (!add_enum(decl)) return fail("its enum cannot be part of the model (see above)");
      return mapped_type{{"enum", "", named->getNameAsString(), 0, {}, {}},
                         named->getQualifiedNameAsString()};
    }

    if (const auto* builtin = type->getAs<clang::BuiltinType>())
      return map_builtin(type, builtin, fail);

    const clang::CXXRecordDecl* record = type->getAsCXXRecordDecl();
    if (record == nullptr) return fail("bsongen cannot map this kind of type");
    const std::string name = name_without_inline_namespaces(record);
    const clang::ClassTemplateSpecializationDecl* spec = specialization_of(type);

    if (is_optional(type)) {
      // The model's optional means "the key may be absent or null": a field-level notion.
      if (!outermost)
        return fail(
            "std::optional is only allowed as a member's outermost type: a vector or map "
            "element cannot be absent");
      auto element = map_argument(spec, 0, as_kind, failure);
      if (!element) return std::nullopt;
      const container_kind* optional = catalog().container_for_template("std::optional");
      if (optional == nullptr) return fail("the type catalogue has no kind for std::optional");
      return compose(*optional, std::move(*element), "std::optional<", ">");
    }
    return map_record(type, record, name, spec, failure);
  }

  // BSONGEN_AS(binary_vector): a std::vector (std::pmr::vector) of float or std::int8_t, or a
  // std::array of them (a fixed dimension), is a binary vector (BSON binary subtype 9) rather
  // than a BSON array; bsongen::packed_bits is one without the marker too (map_record).
  template <class Fail>
  std::optional<mapped_type> map_vector(clang::QualType type, Fail&& fail) {
    const std::string& kind = catalog().vector_kind();
    const auto* spec = specialization_of(type);
    const std::string name = spec != nullptr ? name_without_inline_namespaces(spec) : "";
    auto element_spelling = [&](const clang::TemplateArgument& arg) -> std::string {
      if (arg.getKind() != clang::TemplateArgument::Type) return {};
      const clang::QualType element = arg.getAsType().getCanonicalType();
      if (element.hasQualifiers()) return {};
      if (element->isSpecificBuiltinType(clang::BuiltinType::Float)) return "float";
      if (element->isSpecificBuiltinType(clang::BuiltinType::SChar)) return "std::int8_t";
      return {};
    };
    if (name == "std::vector") {
      const auto& args = spec->getTemplateArgs();
      const allocator_family allocator = allocator_of(args[1]);
      const std::string element = element_spelling(args[0]);
      if (!element.empty() && allocator != allocator_family::other) {
        const std::string spelling = spelled_template(name, allocator) + "<" + element + ">";
        if (const vector_dtype_entry* d = catalog().vector_for_spelling(spelling)) {
          type_ref ref{kind, spelling == d->cpp ? "" : spelling, "", 0, {}, d->dtype};
          return mapped_type{std::move(ref), spelling};
        }
      }
    } else if (name == "std::array") {
      const auto& args = spec->getTemplateArgs();
      const std::string element = element_spelling(args[0]);
      const std::uint64_t size = args[1].getAsIntegral().getZExtValue();
      if (const vector_dtype_entry* d = catalog().vector_for_fixed_element(element)) {
        const std::uint64_t most = catalog().max_vector_dimension();
        if (size == 0 || size > most)
          return fail("BSONGEN_AS(binary_vector) needs a dimension from 1 to " +
                      std::to_string(most));
        return mapped_type{{kind, "", "", size, {}, d->dtype},
                           "std::array<" + element + ", " + std::to_string(size) + ">"};
      }
    } else if (name == "bsongen::basic_packed_bits") {
      std::optional<mapping_error> own_failure;
      return map_type(type, "", own_failure, false);
    }
    return fail(
        "BSONGEN_AS(binary_vector) needs a std::vector or std::pmr::vector of float or "
        "std::int8_t, a std::array of them (a fixed dimension), or bsongen::packed_bits");
  }

  static bool is_optional(clang::QualType type) {
    const auto* spec = specialization_of(type);
    return spec != nullptr && name_without_inline_namespaces(spec) == "std::optional";
  }

  // A member of this spelling maps to the catalogue's first scalar kind with that default C++ type.
  template <class Fail>
  std::optional<mapped_type> scalar_spelled(std::string spelling, Fail&& fail) {
    const scalar_kind* kind = catalog().scalar_for_spelling(spelling);
    if (kind == nullptr) return fail("the type catalogue has no kind for " + spelling);
    return mapped_type{{kind->kind, "", "", 0, {}, {}}, std::move(spelling)};
  }

  template <class Fail>
  std::optional<mapped_type> map_builtin(clang::QualType type, const clang::BuiltinType* builtin,
                                         Fail&& fail) {
    using clang::BuiltinType;
    switch (builtin->getKind()) {
      case BuiltinType::Bool:
        return scalar_spelled("bool", fail);
      case BuiltinType::Double:
        return scalar_spelled("double", fail);
      case BuiltinType::NullPtr:
        return scalar_spelled("std::nullptr_t", fail);
      case BuiltinType::Float:
        return fail("float would lose digits decoding a BSON double; use double");
      case BuiltinType::LongDouble:
      case BuiltinType::Float128:
      case BuiltinType::Half:
      case BuiltinType::Float16:
      case BuiltinType::BFloat16:
        return fail("BSON has only 64-bit doubles; use double");
      case BuiltinType::Char_S:
      case BuiltinType::Char_U:
        return fail(
            "plain char is ambiguous (character or number); use std::int8_t or "
            "std::string");
      case BuiltinType::WChar_S:
      case BuiltinType::WChar_U:
      case BuiltinType::Char8:
      case BuiltinType::Char16:
      case BuiltinType::Char32:
        return fail("character types are not supported; use std::string (UTF-8)");
      default:
        break;
    }
    if (!type->isIntegerType()) return fail("bsongen cannot map this builtin type");
    const auto bits = static_cast<unsigned>(context_.getTypeSize(type));
    const bool is_signed = type->isSignedIntegerType();
    // An integer maps to the narrowest kind whose default C++ type is a signed std::intN_t
    // holding every value (int32 for int8..int32 and uint8/uint16, int64 for int64 and uint32).
    // uint64 has no lossless BSON type, so it is refused rather than letting an encoder meet
    // values it cannot represent.
    const unsigned value_bits = is_signed ? bits : bits + 1;
    const scalar_kind* kind = nullptr;
    for (unsigned width = 8; width <= 64 && kind == nullptr; width *= 2) {
      if (width >= value_bits)
        kind = catalog().scalar_for_spelling("std::int" + std::to_string(width) + "_t");
    }
    if (kind == nullptr && !is_signed && bits == 64)
      return fail("64-bit unsigned integers have no lossless BSON type; use std::int64_t");
    if (kind == nullptr) return fail("integers wider than 64 bits have no BSON type");
    // The fixed-width name when the type is the one <cstdint> aliases (on LP64, `long` is
    // std::int64_t but `long long` is a distinct type that must keep its own spelling).
    std::string spelling = type.getAsString(context_.getPrintingPolicy());
    if (context_.hasSameType(type, context_.getIntTypeForBitwidth(bits, is_signed ? 1U : 0U)))
      spelling = std::string(is_signed ? "std::int" : "std::uint") + std::to_string(bits) + "_t";
    type_ref ref{kind->kind, "", "", 0, {}, {}};
    if (spelling != kind->cpp) ref.cpp = spelling;
    return mapped_type{std::move(ref), spelling};
  }

  std::optional<mapped_type> map_argument(const clang::ClassTemplateSpecializationDecl* spec,
                                          unsigned index, const std::string& as_kind,
                                          std::optional<mapping_error>& failure) {
    const clang::TemplateArgument& arg = spec->getTemplateArgs()[index];
    if (arg.getKind() != clang::TemplateArgument::Type) {
      failure =
          mapping_error{clang::QualType(spec->getTypeForDecl(), 0), "unexpected template argument"};
      return std::nullopt;
    }
    return map_type(arg.getAsType(), as_kind, failure, /*outermost=*/false);
  }

  // The catalogue's map kind when template argument 0 of `spec` is spelled as that kind's key
  // (std::string: BSON keys are strings) or as the key's std::pmr spelling, with `key` set to the
  // spelling; otherwise nullptr, with the reason in `why`.
  const container_kind* string_keyed_map(const clang::ClassTemplateSpecializationDecl* spec,
                                         std::string& key, std::string& why) {
    const container_kind* map = catalog().container_for_template("std::map");
    if (map == nullptr || map->leading_args.size() != 1) {
      why = "the type catalogue has no kind for std::map<key, T>";
      return nullptr;
    }
    std::optional<mapping_error> key_failure;
    auto mapped = map_argument(spec, 0, "", key_failure);
    const std::string& standard_key = map->leading_args.front();
    const scalar_kind* text = catalog().scalar_for_spelling(standard_key);
    const std::string pmr_key = text != nullptr ? text->pmr_cpp : std::string();
    if (!mapped || (mapped->spelling != standard_key && mapped->spelling != pmr_key)) {
      why = "keys must be " + standard_key + (pmr_key.empty() ? "" : " or " + pmr_key) +
            " (BSON keys are strings)";
      return nullptr;
    }
    key = mapped->spelling;
    return map;
  }

  // The allocator a standard string or container is declared with: std::allocator (spelled as
  // the kind's default), std::pmr::polymorphic_allocator (spelled std::pmr::...: the member
  // allocates from its memory resource, and the codecs create its elements on that resource),
  // or another, which is refused.
  enum class allocator_family { standard, pmr, other };
  static allocator_family allocator_of(const clang::TemplateArgument& arg) {
    if (is_std(arg, "std::allocator")) return allocator_family::standard;
    if (is_std(arg, "std::pmr::polymorphic_allocator")) return allocator_family::pmr;
    return allocator_family::other;
  }
  // "std::vector" or, with a polymorphic allocator, its alias "std::pmr::vector" (the standard
  // declares one for every allocator-aware container, under the same name).
  static std::string spelled_template(const std::string& name, allocator_family allocator) {
    return allocator == allocator_family::pmr ? "std::pmr::" + name.substr(5) : name;
  }

  // A container's reference: its element's, and `cpp` when its own spelling
  // (before + element's spelling + after) is not the kind's default. The spelling is built here,
  // after `element` arrived: built at the call site it could read a moved-from element (argument
  // evaluation order is unspecified; clang and g++ differ).
  static mapped_type compose(const container_kind& kind, mapped_type element,
                             std::string_view before, std::string_view after,
                             std::uint64_t size = 0) {
    type_ref ref{kind.kind, "", "", size, {}, {}};
    std::string spelling = std::string(before) + element.spelling + std::string(after);
    const std::string element_spelling = std::move(element.spelling);
    ref.element.push_back(std::move(element.ref));
    if (spelling != catalog().default_spelling(ref, element_spelling)) ref.cpp = spelling;
    return mapped_type{std::move(ref), std::move(spelling)};
  }

  static bool is_std(const clang::TemplateArgument& arg, std::string_view name) {
    if (arg.getKind() != clang::TemplateArgument::Type) return false;
    const clang::CXXRecordDecl* record = arg.getAsType()->getAsCXXRecordDecl();
    return record != nullptr && name_without_inline_namespaces(record) == name;
  }

  static bool is_plain_char(const clang::TemplateArgument& arg) {
    if (arg.getKind() != clang::TemplateArgument::Type) return false;
    clang::QualType type = arg.getAsType().getCanonicalType();
    return type->isSpecificBuiltinType(clang::BuiltinType::Char_S) ||
           type->isSpecificBuiltinType(clang::BuiltinType::Char_U);
  }

  std::optional<mapped_type> map_record(clang::QualType type, const clang::CXXRecordDecl* record,
                                        const std::string& name,
                                        const clang::ClassTemplateSpecializationDecl* spec,
                                        std::optional<mapping_error>& failure) {
    auto fail = [&](std::string reason) -> std::optional<mapped_type> {
      failure = mapping_error{type, std::move(reason)};
      return std::nullopt;
    };
    // The runtime's value types (bsongen::object_id, ...), by the catalogue's spelling, and those
    // with a std::pmr spelling by that one too (bsongen::pmr::binary), with `cpp` naming it.
    if (spec == nullptr) {
      if (const scalar_kind* kind = catalog().scalar_for_spelling(name))
        return mapped_type{{kind->kind, "", "", 0, {}, {}}, name};
      if (const scalar_kind* kind = catalog().scalar_for_pmr_spelling(name))
        return mapped_type{{kind->kind, name, "", 0, {}, {}}, name};
    }

    if (spec != nullptr) {
      const auto& args = spec->getTemplateArgs();
      if (name == "std::basic_string") {
        const allocator_family allocator = allocator_of(args[2]);
        if (!is_plain_char(args[0]) || !is_std(args[1], "std::char_traits") ||
            allocator == allocator_family::other)
          return fail(
              "only std::string and std::pmr::string (char, the default traits) are supported");
        auto text = scalar_spelled("std::string", fail);
        if (text && allocator == allocator_family::pmr) {
          const std::string& pmr = catalog().scalar(text->ref.kind)->pmr_cpp;
          if (pmr.empty()) return fail("the type catalogue has no std::pmr spelling of a string");
          text->ref.cpp = text->spelling = pmr;
        }
        return text;
      }
      if (name == "std::basic_string_view") {
        if (!is_plain_char(args[0]) || !is_std(args[1], "std::char_traits"))
          return fail("only std::string_view (char) is supported");
        // A view into the input: the kind of std::string, spelled as the view.
        auto text = scalar_spelled("std::string", fail);
        if (text) text->ref.cpp = text->spelling = "std::string_view";
        return text;
      }
      if (name == "bsongen::basic_packed_bits") {
        // A packed_bit binary vector (BSON binary subtype 9), std or std::pmr.
        const allocator_family allocator = allocator_of(args[0]);
        const std::string spelling = allocator == allocator_family::pmr
                                         ? "bsongen::pmr::packed_bits"
                                         : "bsongen::packed_bits";
        const vector_dtype_entry* d = catalog().vector_for_spelling(spelling);
        if (allocator == allocator_family::other || d == nullptr)
          return fail(
              "bsongen::basic_packed_bits with an allocator other than std::allocator or "
              "std::pmr::polymorphic_allocator is not supported");
        return mapped_type{
            {catalog().vector_kind(), spelling == d->cpp ? "" : spelling, "", 0, {}, d->dtype},
            spelling};
      }
      if (name == "bsongen::nullable") {
        const container_kind* nullable = catalog().container_for_template(name);
        if (nullable == nullptr) return fail("the type catalogue has no kind for " + name);
        auto element = map_argument(spec, 0, "", failure);
        if (!element) return std::nullopt;
        return compose(*nullable, std::move(*element), "bsongen::nullable<", ">");
      }
      if (name == "bsongen::number") {
        const container_kind* number = catalog().container_for_template(name);
        if (number == nullptr) return fail("the type catalogue has no kind for " + name);
        // The runtime admits std::int64_t and double only (a constrained template).
        const clang::QualType arg = args[0].getAsType().getCanonicalType();
        mapped_type element{{"double", "", "", 0, {}, {}}, "double"};
        if (context_.hasSameType(arg, context_.getIntTypeForBitwidth(64, 1))) {
          element = mapped_type{{"int64", "", "", 0, {}, {}}, "std::int64_t"};
        } else if (!arg->isSpecificBuiltinType(clang::BuiltinType::Double)) {
          return fail("bsongen::number holds std::int64_t or double");
        }
        return compose(*number, std::move(element), "bsongen::number<", ">");
      }
      if (name == "std::vector") {
        const container_kind* vector = catalog().container_for_template(name);
        if (vector == nullptr) return fail("the type catalogue has no kind for " + name);
        const allocator_family allocator = allocator_of(args[1]);
        if (allocator == allocator_family::other)
          return fail(
              "std::vector with an allocator other than std::allocator or "
              "std::pmr::polymorphic_allocator is not supported");
        const std::string vector_template = spelled_template(name, allocator);
        if (const auto* entry = specialization_of(args[0].getAsType());
            entry != nullptr && name_without_inline_namespaces(entry) == "std::pair") {
          // (key, value) pairs: a map that keeps the document's order and its repeated keys.
          std::string key;
          std::string why;
          const container_kind* map = string_keyed_map(entry, key, why);
          if (map == nullptr) return fail("a std::vector of std::pair is a map: its " + why);
          auto element = map_argument(entry, 1, "", failure);
          if (!element) return std::nullopt;
          return compose(*map, std::move(*element), vector_template + "<std::pair<" + key + ", ",
                         ">>");
        }
        auto element = map_argument(spec, 0, "", failure);
        if (!element) return std::nullopt;
        return compose(*vector, std::move(*element), vector_template + "<", ">");
      }
      if (name == "std::array") {
        const container_kind* array = catalog().container_for_template(name);
        if (array == nullptr) return fail("the type catalogue has no kind for " + name);
        const std::uint64_t size = args[1].getAsIntegral().getZExtValue();
        const std::uint64_t max_size = catalog().max_array_size();
        if (size == 0 || size > max_size)
          return fail("std::array needs a size from 1 to " + std::to_string(max_size));
        auto element = map_argument(spec, 0, "", failure);
        if (!element) return std::nullopt;
        return compose(*array, std::move(*element), "std::array<",
                       ", " + std::to_string(size) + ">", size);
      }
      if (name == "std::map" || name == "std::unordered_map") {
        std::string key_spelling;
        std::string why;
        const container_kind* map = string_keyed_map(spec, key_spelling, why);
        if (map == nullptr) return fail("map " + why);
        const allocator_family allocator = allocator_of(args[name == "std::map" ? 3 : 4]);
        std::string extra;
        if (name == "std::map") {
          const auto& compare = args[2];
          const auto* less = compare.getKind() == clang::TemplateArgument::Type
                                 ? specialization_of(compare.getAsType())
                                 : nullptr;
          if (less == nullptr || name_without_inline_namespaces(less) != "std::less")
            return fail("std::map with a comparator other than std::less is not supported");
          if (less->getTemplateArgs()[0].getAsType()->isVoidType()) extra = ", std::less<>";
          if (allocator == allocator_family::other)
            return fail(
                "std::map with an allocator other than std::allocator or "
                "std::pmr::polymorphic_allocator is not supported");
        } else if (!is_std(args[2], "std::hash") || !is_std(args[3], "std::equal_to") ||
                   allocator == allocator_family::other) {
          return fail(
              "std::unordered_map with a custom hash, equality or allocator (other than "
              "std::pmr::polymorphic_allocator) is not supported");
        }
        auto element = map_argument(spec, 1, "", failure);
        if (!element) return std::nullopt;
        return compose(*map, std::move(*element),
                       spelled_template(name, allocator) + "<" + key_spelling + ", ", extra + ">");
      }
      if (name == "std::chrono::time_point") return map_time_point(spec, fail);
    }

    if (has_marker(record, "document")) {
      if (spec != nullptr || record->isTemplated())
        return fail("class templates cannot be BSONGEN_DOCUMENTs");
      if (record->getDefinition() == nullptr) return fail("the struct is declared but not defined");
      add_document(record);
      // in_progress: a struct containing itself (through vector or map); the generator checks
      // that the cycle passes through a container that allocates.
      if (document_state_[record->getDefinition()] == state::failed)
        return fail("its BSONGEN_DOCUMENT struct has errors (reported above)");
      return mapped_type{{"struct", "", record->getNameAsString(), 0, {}, {}},
                         record->getQualifiedNameAsString()};
    }
    if (name.rfind("std::", 0) == 0)
      return fail(name +
                  " is not supported (supported containers: std::vector, std::array, "
                  "std::optional, std::map and std::unordered_map with std::string keys, "
                  "std::vector of std::pair with std::string keys; "
                  "bsongen::nullable and bsongen::number)");
    return fail("'" + name + "' is not marked BSONGEN_DOCUMENT");
  }

  // Any std::chrono::time_point of system_clock: the kind of bsongen::datetime (milliseconds, as
  // runtime/core's types.hpp defines it), with `cpp` unless it is that one.
  template <class Fail>
  std::optional<mapped_type> map_time_point(const clang::ClassTemplateSpecializationDecl* spec,
                                            Fail&& fail) {
    const scalar_kind* datetime = catalog().scalar_for_spelling("bsongen::datetime");
    if (datetime == nullptr) return fail("the type catalogue has no kind for bsongen::datetime");
    const auto& args = spec->getTemplateArgs();
    const clang::CXXRecordDecl* clock = args[0].getAsType()->getAsCXXRecordDecl();
    if (clock == nullptr || name_without_inline_namespaces(clock) != "std::chrono::system_clock")
      return fail("only time points of std::chrono::system_clock map to a BSON datetime");
    const auto* duration = specialization_of(args[1].getAsType());
    if (duration == nullptr) return fail("unrecognized duration type");
    clang::QualType rep = duration->getTemplateArgs()[0].getAsType().getCanonicalType();
    const auto* period = specialization_of(duration->getTemplateArgs()[1].getAsType());
    if (!rep->isArithmeticType() || period == nullptr) return fail("unrecognized duration type");
    // A BSON datetime is a count of milliseconds: converting it to or from a floating-point count
    // rounds, so only integer counts map exactly.
    if (!rep->isIntegerType() || rep->isBooleanType())
      return fail("a time point must count ticks in an integer type (" +
                  rep.getAsString(context_.getPrintingPolicy()) +
                  " ticks would be rounded); use std::chrono::system_clock::time_point or "
                  "bsongen::datetime");
    const std::int64_t num = period->getTemplateArgs()[0].getAsIntegral().getExtValue();
    const std::int64_t den = period->getTemplateArgs()[1].getAsIntegral().getExtValue();
    clang::QualType int64 = context_.getIntTypeForBitwidth(64, 1);

    std::string spelling;
    if (context_.hasSameType(rep, int64) && num == 1 && den == 1000) {
      spelling = datetime->cpp;
    } else if (is_clock_time_point(clock, clang::QualType(spec->getTypeForDecl(), 0))) {
      spelling = "std::chrono::system_clock::time_point";
    } else {
      std::string rep_spelling = rep.getAsString(context_.getPrintingPolicy());
      if (context_.hasSameType(rep, int64)) rep_spelling = "std::int64_t";
      spelling = "std::chrono::time_point<std::chrono::system_clock, std::chrono::duration<" +
                 rep_spelling + ", std::ratio<" + std::to_string(num) + ", " + std::to_string(den) +
                 ">>>";
    }
    type_ref ref{datetime->kind, "", "", 0, {}, {}};
    if (spelling != datetime->cpp) ref.cpp = spelling;
    return mapped_type{std::move(ref), spelling};
  }

  // Whether `type` is the clock's own `time_point` member type (whose duration differs between
  // standard libraries).
  bool is_clock_time_point(const clang::CXXRecordDecl* clock, clang::QualType type) {
    for (const clang::NamedDecl* found : clock->lookup(&context_.Idents.get("time_point"))) {
      if (const auto* alias = llvm::dyn_cast<clang::TypedefNameDecl>(found))
        return context_.hasSameType(alias->getUnderlyingType(), type);
    }
    return false;
  }

  // The declaration naming an enum: the enum, or for `typedef enum { ... } name;` the typedef (C++
  // accepts it wherever the enum's name goes, `name::value` included); null when neither exists.
  static const clang::NamedDecl* enum_name_decl(const clang::EnumDecl* decl) {
    if (decl->getIdentifier() != nullptr) return decl;
    return decl->getTypedefNameForAnonDecl();
  }

  // Adds the enum to the model once; false when it cannot be part of it (reported).
  bool add_enum(const clang::EnumDecl* decl) {
    if (auto it = enum_ok_.find(decl); it != enum_ok_.end()) return it->second;
    enumeration built;
    bool ok = build_enum(decl, built);
    enum_ok_[decl] = ok;
    if (ok) enum_decls_.emplace_back(decl, std::move(built));
    return ok;
  }

  bool build_enum(const clang::EnumDecl* decl, enumeration& out) {
    const clang::NamedDecl* named = enum_name_decl(decl);  // not null: map_type checked
    if (!check_namespace(named, "enum")) return false;
    out.name = named->getNameAsString();
    out.doc = doc_of(decl);
    out.location = location_of(decl);
    const std::vector<marker> enum_markers = markers_of(decl);
    bool ok = markers_unique(enum_markers);
    for (const auto& m : enum_markers) {
      if (m.name == "enum_storage" && m.value == "string") {
        out.storage = "string";
      } else {
        error(m.attr->getLocation(), "marker 'bsongen:%0' does not apply to an enum") << m.name;
        ok = false;
      }
    }
    std::map<std::int64_t, const clang::EnumConstantDecl*> first_with_value;
    for (const clang::EnumConstantDecl* constant : decl->enumerators()) {
      enum_value value;
      value.name = constant->getNameAsString();
      value.bson_name = value.name;
      value.doc = doc_of(constant);
      value.location = location_of(constant);
      const llvm::APSInt& init = constant->getInitVal();
      if (init.getMinSignedBits() > 64) {
        error(constant->getLocation(), "enumerator '%0' of '%1' does not fit in 64 bits")
            << value.name << named->getQualifiedNameAsString();
        ok = false;
        continue;
      }
      value.value = init.getExtValue();  // an int32 enum's range is the linker's check
      const std::vector<marker> constant_markers = markers_of(constant);
      if (!markers_unique(constant_markers)) ok = false;
      for (const auto& m : constant_markers) {
        if (m.name == "bson_name" && out.storage == "string" && !valid_utf8(m.value)) {
          error(m.attr->getLocation(),
                "BSONGEN_BSON_NAME of '%0' of '%1' is not valid UTF-8 (BSON strings are UTF-8): "
                "save the header as UTF-8 or spell the name with \\u escapes")
              << value.name << named->getQualifiedNameAsString();
          ok = false;
        } else if (m.name == "bson_name" && out.storage == "string") {
          value.bson_name = m.value;
        } else if (m.name == "bson_name") {
          error(m.attr->getLocation(),
                "BSONGEN_BSON_NAME on '%0' needs the enum '%1' marked BSONGEN_ENUM_AS_STRING")
              << value.name << named->getQualifiedNameAsString();
          ok = false;
        } else {
          error(m.attr->getLocation(), "marker 'bsongen:%0' does not apply to an enumerator")
              << m.name;
          ok = false;
        }
      }
      // An alias (`last = b`) is the same value: stored as int32 it changes nothing on the wire,
      // so the model lists each value once, under its first enumerator. Stored as a name, encode
      // could not tell which name to write.
      if (auto [first, fresh] = first_with_value.try_emplace(value.value, constant); !fresh) {
        if (out.storage == "string") {
          error(constant->getLocation(),
                "enumerator '%0' of '%1' has the value of '%2' (%3): an enum stored as a string "
                "(BSONGEN_ENUM_AS_STRING) needs one enumerator per value, else encode cannot tell "
                "which name to write; remove the alias or store the enum as int32")
              << value.name << named->getQualifiedNameAsString() << first->second->getNameAsString()
              << std::to_string(value.value);
          note(first->second->getLocation(), "'%0' declared here")
              << first->second->getNameAsString();
          ok = false;
        }
        continue;
      }
      out.values.push_back(std::move(value));
    }
    return ok;
  }

  enum class state { in_progress, done, failed };

  clang::ASTContext& context_;
  clang::Sema& sema_;
  clang::SourceManager& sources_;
  clang::DiagnosticsEngine& diagnostics_;
  std::vector<const clang::FileEntry*> header_files_;
  scan_result& result_;
  std::optional<std::string> namespace_;
  const clang::NamedDecl* namespace_origin_ = nullptr;
  std::map<const clang::CXXRecordDecl*, state> document_state_;
  std::map<const clang::EnumDecl*, bool> enum_ok_;
  std::vector<std::pair<const clang::EnumDecl*, enumeration>> enum_decls_;
};

// Collects the BSONGEN_DOCUMENT definitions in source order, through namespaces, extern "C++"
// blocks, classes (a document nested in one is reported) and class templates (reported too).
// Function bodies are not entered: nothing declared there can be named by generated code.
// A plain walk rather than RecursiveASTVisitor, whose instantiation doubles this file's build time.
void find_documents(const clang::DeclContext* context,
                    std::vector<const clang::CXXRecordDecl*>& found) {
  for (const clang::Decl* decl : context->decls()) {
    const clang::CXXRecordDecl* record = llvm::dyn_cast<clang::CXXRecordDecl>(decl);
    if (const auto* pattern = llvm::dyn_cast<clang::ClassTemplateDecl>(decl))
      record = pattern->getTemplatedDecl();
    if (record != nullptr) {
      if (!record->isThisDeclarationADefinition() || record->isInvalidDecl()) continue;
      if (has_marker(record, "document")) found.push_back(record);
      find_documents(record, found);
    } else if (llvm::isa<clang::NamespaceDecl>(decl) || llvm::isa<clang::LinkageSpecDecl>(decl)) {
      find_documents(llvm::cast<clang::DeclContext>(decl), found);
    }
  }
}

// A SemaConsumer for Sema's answers about special members (check_lifetime).
class scan_consumer : public clang::SemaConsumer {
 public:
  scan_consumer(const scan_request& request, scan_result& result)
      : request_(request), result_(result) {}

  void InitializeSema(clang::Sema& sema) override { sema_ = &sema; }
  void ForgetSema() override { sema_ = nullptr; }

  void HandleTranslationUnit(clang::ASTContext& context) override {
    clang::SourceManager& sources = context.getSourceManager();
    collect_dependencies(sources);

    std::vector<const clang::FileEntry*> header_files;
    for (const auto& header : request_.headers) {
      if (auto file = sources.getFileManager().getFile(header)) header_files.push_back(*file);
    }
    std::vector<const clang::CXXRecordDecl*> documents;
    find_documents(context.getTranslationUnitDecl(), documents);
    model_builder builder(context, *sema_, std::move(header_files), result_);
    for (const auto* record : documents) builder.add_document_from_header(record);
    builder.finish();
  }

 private:
  void collect_dependencies(const clang::SourceManager& sources) {
    const clang::FileEntry* main_file = sources.getFileEntryForID(sources.getMainFileID());
    std::set<std::string> files;
    for (auto it = sources.fileinfo_begin(); it != sources.fileinfo_end(); ++it) {
      const clang::FileEntry* file = it->first;
      if (file == nullptr || file == main_file) continue;
      // The real path when the file was opened (symlinks and "../" resolved as the OS does; a
      // lexical "../" removal is wrong across symlinks), else the name made absolute: the build
      // tool reading the depfile runs in another directory.
      llvm::SmallString<256> path(file->tryGetRealPathName());
      if (path.empty()) {
        path = file->getName();
        llvm::sys::fs::make_absolute(path);
      }
      files.insert(std::string(path));
    }
    result_.dependencies.assign(files.begin(), files.end());
  }

  const scan_request& request_;
  scan_result& result_;
  clang::Sema* sema_ = nullptr;  // alive from InitializeSema to ForgetSema, parsing included
};

class scan_action : public clang::ASTFrontendAction {
 public:
  scan_action(const scan_request& request, scan_result& result)
      : request_(request), result_(result) {}

 protected:
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance&,
                                                        llvm::StringRef) override {
    return std::make_unique<scan_consumer>(request_, result_);
  }
  // Function bodies say nothing about data members; skipping them (constexpr and auto-returning
  // ones excepted, Clang keeps those) is most of the parse time of standard headers.
  bool BeginSourceFileAction(clang::CompilerInstance& compiler) override {
    compiler.getFrontendOpts().SkipFunctionBodies = true;
    return true;
  }
  void EndSourceFileAction() override {
    result_.error_count = getCompilerInstance().getDiagnostics().getClient()->getNumErrors();
  }

 private:
  const scan_request& request_;
  scan_result& result_;
};

}  // namespace

scan_result scan_headers(const scan_request& request) {
  scan_result result;
  // One translation unit including every header: each header is parsed once and the structs of
  // one may use the enums and documents of another.
  std::string source;
  for (const auto& header : request.headers) source += "#include \"" + header + "\"\n";

  std::vector<std::string> args = {"-std=" + request.language_standard, "-xc++"};
  if (!request.resource_dir.empty()) args.push_back("-resource-dir=" + request.resource_dir);
  for (const auto& dir : request.include_dirs) args.push_back("-I" + dir);
  for (const auto& dir : request.system_include_dirs) {
    args.push_back("-isystem");
    args.push_back(dir);
  }
  for (const auto& definition : request.definitions) args.push_back("-D" + definition);

  const bool success =
      clang::tooling::runToolOnCodeWithArgs(std::make_unique<scan_action>(request, result), source,
                                            args, "bsongen-scan-input.cpp", "bsongen-scan");
  if (!success && result.error_count == 0) result.error_count = 1;
  return result;
}

}  // namespace bsongen::scan

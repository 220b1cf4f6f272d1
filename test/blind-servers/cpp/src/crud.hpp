// Generic validation and CRUD plumbing for loosely specified E14 collections.
#pragma once
#include "app.hpp"

struct FieldSpec {
  std::string name;
  std::string type;  // string | integer | number | boolean | object | array | strings | email | any
  bool required = false;
  std::vector<std::string> enums;
  size_t maxLen = 500;
  bool secret = false;
  bool nullable = true;
};

// Validate the body against specs. create=true enforces required fields and rejects nulls for them.
// Returns provided public fields; secret values go to `secrets`.
Json validateFields(const Json& body, const std::vector<FieldSpec>& specs, bool create, std::map<std::string, std::string>& secrets);
Json withSecretHints(const Json& row, const std::map<std::string, std::string>& secrets);
std::string fieldSchema(const std::vector<FieldSpec>& specs, bool forCreate);
int64_t rowId(Ctx& c, Coll& coll, const std::string& param, const std::string& what);
std::vector<Json> searchRows(const Coll& coll, const std::string& search, const std::vector<std::string>& fields,
                             std::function<bool(const Json&)> keep = nullptr);

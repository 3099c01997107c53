// Reads start tags and their attributes out of a serialized DOM (Chromium's --dump-dom), enough
// for tests to count and inspect elements without an HTML library.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace aclnn_check::testing {

using Attributes = std::map<std::string, std::string>;

inline std::string DecodeEntities(const std::string& text) {
  std::string decoded;
  for (size_t i = 0; i < text.size(); ++i) {
    bool replaced = false;
    for (const auto& [entity, character] : {std::pair<const char*, char>{"&amp;", '&'}, {"&quot;", '"'},
                                            {"&lt;", '<'}, {"&gt;", '>'}, {"&#39;", '\''}}) {
      const std::string name = entity;
      if (text.compare(i, name.size(), name) == 0) {
        decoded += character;
        i += name.size() - 1;
        replaced = true;
        break;
      }
    }
    if (!replaced) decoded += text[i];
  }
  return decoded;
}

// Every <tag ...> in `dom`, in order, with its attributes (values decoded; "" for bare ones).
inline std::vector<Attributes> StartTags(const std::string& dom, const std::string& tag) {
  std::vector<Attributes> tags;
  const std::string open = "<" + tag;
  for (size_t at = dom.find(open); at != std::string::npos; at = dom.find(open, at + 1)) {
    size_t i = at + open.size();
    if (i >= dom.size() || (dom[i] != ' ' && dom[i] != '>')) continue;  // <trx, <tbody for <t
    Attributes attributes;
    while (i < dom.size() && dom[i] != '>') {
      while (i < dom.size() && dom[i] == ' ') ++i;
      const size_t name_start = i;
      while (i < dom.size() && dom[i] != '=' && dom[i] != ' ' && dom[i] != '>') ++i;
      const std::string name = dom.substr(name_start, i - name_start);
      std::string value;
      if (i < dom.size() && dom[i] == '=' && i + 1 < dom.size() && dom[i + 1] == '"') {
        const size_t value_end = dom.find('"', i + 2);
        value = DecodeEntities(dom.substr(i + 2, value_end - i - 2));
        i = value_end + 1;
      }
      if (!name.empty()) attributes[name] = value;
    }
    tags.push_back(attributes);
  }
  return tags;
}

inline bool HasClass(const Attributes& attributes, const std::string& name) {
  const auto it = attributes.find("class");
  if (it == attributes.end()) return false;
  const std::string padded = " " + it->second + " ";
  return padded.find(" " + name + " ") != std::string::npos;
}

}  // namespace aclnn_check::testing

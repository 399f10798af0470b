#include "reports/html/page_parts.h"

#include "reports/html/page_assets.h"

namespace polyarch::reports::html {

std::string page_head(std::string_view title) {
  std::string head = "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>";
  head += title;
  head += "</title><style>\n";
  head += kPageCss;
  head += "</style></head><body>\n";
  return head;
}

std::string page_scripts(std::string_view page_script) {
  std::string scripts = "<script>\n";
  for (std::string_view library : {kVegaJs, kVegaLiteJs, kVegaEmbedJs}) {
    scripts += library;
    scripts += "\n";
  }
  scripts += "</script>\n<script>\n";
  scripts += kChartsJs;
  scripts += page_script;
  scripts += "</script>\n</body></html>\n";
  return scripts;
}

}  // namespace polyarch::reports::html

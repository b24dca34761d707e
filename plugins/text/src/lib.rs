//! The `text` pack as a plugin: the root module exporting
//! [`isu_packs::text::TEXT`], where its functions are written.

isu_plugin_api::export_pack!(isu_plugin_api::pack::TablePack, isu_packs::text::TEXT);

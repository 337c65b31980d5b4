//! Fixtures shared by the app's tests: eden-core's own (`eden_core::fixtures`), so no page imports
//! another page's tests and no fixture is written twice.

pub(crate) use eden_core::fixtures::agents_projects as projects;

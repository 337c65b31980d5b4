//! Verified inputs (C21, §2.1 of the scoring seed): a number counts only if it carries a valid signed
//! attestation from the project's registered source key and, where an independent re-fetch exists,
//! reconciles with it (the re-fetched value is the one used). A claim that fails either check is dropped
//! and counts against the project (`claims`/`failed`, the λ penalty of C2).
//!
//! - [`typed`]: the EIP-712 `Attestation` a source key signs (one per project, source and epoch, every
//!   metric of that source in it) and its JSON wire form, [`SignedAttestation`].
//! - [`keys`]: the registered source keys ([`KeyBook`]), as `SourceKeyRegistry` holds them on chain.
//! - [`names`]: the inputs that are never inputs (token price, trading volume, holder counts, liquidity).
//! - [`report`]: the intake report published beside the bundle (a public project's attestations and
//!   re-fetches, a private project's outcomes), and one project's re-run from it.
//! - [`intake`]: from a cohort's attestations and re-fetches to each project's [`ProjectData`], with a
//!   per-claim report of what was used, what failed and why, and what was ignored and why.
//!
//! - [`anomaly`]: which adapter a source's rule requires and what an adapter leaves out (C21a).
//!
//! [`ProjectData`]: crate::scoring::ProjectData

pub mod anomaly;
mod claim_de;
pub mod intake;
pub mod keys;
pub mod names;
mod refetch_wire;
pub mod report;
pub mod typed;

pub use anomaly::{AdapterKind, Anomaly, Exclusion};
pub use intake::{
    intake, recover_signers, within_tolerance, Claim, ClaimOutcome, Cohort, FailReason,
    IgnoreReason, Intake, IntakeConfig, IntakeError, IntakeParams, MetricRule, ProjectIntake,
    Refetch, RefetchTable, Refetches, SourceRule, Submission,
};
pub use keys::{KeyBook, KeyRecord};
pub use names::{forbidden_input, FORBIDDEN_INPUTS};
pub use report::{recheck_project, IntakeReport, ReportProject, SourceRefetches, INTAKE_FORMAT};
pub use typed::{
    attestation_domain, attestation_signing_hash, recover_attestation_signer, source_id,
    Attestation, AttestationJsonError, Metric, SignedAttestation, ATTESTATION_DOMAIN_NAME,
    ATTESTATION_DOMAIN_VERSION, ATTESTATION_TYPE,
};

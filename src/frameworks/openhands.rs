//! OpenHands SDK file agents (openhands-sdk 1.58.2).
use super::{Framework, LoadContext};
use crate::model::EcosystemReport;

pub struct OpenHands;

impl Framework for OpenHands {
    fn id(&self) -> &'static str {
        "openhands"
    }
    fn title(&self) -> &'static str {
        "OpenHands"
    }
    fn load(&self, _cx: &LoadContext) -> EcosystemReport {
        EcosystemReport::new("openhands")
    }
}

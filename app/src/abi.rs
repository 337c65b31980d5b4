//! The contracts' ABI as the app uses it (alloy `sol!`): calls, events, and custom errors decoded
//! into plain words.

// `sol!` generates constructors with one argument per field (`Launch` has 8).
#![allow(clippy::too_many_arguments)]

use alloy_primitives::{hex, Bytes};
use alloy_sol_types::{sol, SolInterface};

sol! {
    interface ILaunchpad {
        struct Launch {
            address quote;
            uint64 launchTime;
            bool graduated;
            address creator;
            uint256 virtualQuote;
            uint256 quoteRaised;
            uint256 tokenReserve;
            uint256 feesAccrued;
        }
        struct PoolKey {
            address currency0;
            address currency1;
            uint24 fee;
            int24 tickSpacing;
            address hooks;
        }
        function launchOf(address token) external view returns (Launch memory);
        function launchCount() external view returns (uint256);
        function tokens(uint256 index) external view returns (address);
        function supply() external view returns (uint256);
        function feeBps() external view returns (uint16);
        function buy(address token, uint256 quoteIn, uint256 minTokensOut, uint256 deadline) external payable returns (uint256 tokensOut, uint256 quoteUsed);
        function sell(address token, uint256 tokensIn, uint256 minQuoteOut, uint256 deadline) external returns (uint256 quoteOut);
        function poolOf(address token) external view returns (PoolKey memory key, bytes32 poolId);

        event Launched(address indexed token, address indexed creator, address indexed quote, string name, string symbol, uint256 supply, uint256 virtualQuote);
        event Bought(address indexed token, address indexed buyer, uint256 quoteUsed, uint256 fee, uint256 tokensOut, uint256 refund, uint256 quoteRaised, uint256 tokenReserve);
        event Sold(address indexed token, address indexed seller, uint256 tokensIn, uint256 quoteOut, uint256 fee, uint256 quoteRaised, uint256 tokenReserve);
        event Graduated(address indexed token, bytes32 indexed poolId, uint160 sqrtPriceX96, uint128 liquidity, uint256 paid0, uint256 paid1, uint256 tokensLocked);

        error InvalidConfig(string field);
        error QuoteAssetNotAllowed(address asset);
        error UnknownToken(address token);
        error AlreadyGraduated(address token, bytes32 poolId);
        error NotGraduated(address token);
        error DeadlineExpired(uint256 deadline, uint256 timestamp);
        error WrongValue(uint256 sent, uint256 expected);
        error TokensOutBelowMin(uint256 tokensOut, uint256 minTokensOut);
        error QuoteOutBelowMin(uint256 quoteOut, uint256 minQuoteOut);
        error NothingToCollect(address token);
        error EthTransferFailed(address to, uint256 amount);
        error NotFeeSink(address caller);
    }

    interface IERC20 {
        function balanceOf(address account) external view returns (uint256);
        function allowance(address owner, address spender) external view returns (uint256);
        function approve(address spender, uint256 amount) external returns (bool);
        function name() external view returns (string);
        function symbol() external view returns (string);
        function decimals() external view returns (uint8);
        error ERC20InsufficientBalance(address sender, uint256 balance, uint256 needed);
        error ERC20InsufficientAllowance(address spender, uint256 allowance, uint256 needed);
    }

    interface IEpochRegistry {
        function status(uint64 epoch) external view returns (uint8 status, uint64 deadline);
        function finalRoot(uint64 epoch) external view returns (bytes32);
        function signer() external view returns (address);
        function nextEpoch() external view returns (uint64);
        function firstEpoch() external view returns (uint64);
        function verifyScore(uint64 epoch, address project, uint256 scoreWad, bytes32[] proof) external view returns (bool);
        function propose(uint64 epoch, bytes32 root, bytes32 inputsRoot, uint64 expiry, bytes signature) external payable;
        event RootProposed(uint64 indexed epoch, bytes32 root, bytes32 inputsRoot, uint64 expiry, address indexed proposer, uint64 deadline);
        error NotFinal(uint64 epoch, uint8 status);
    }

    interface IHolderDistributor {
        struct Round {
            bytes32 root;
            uint128 total;
            uint128 claimed;
            uint64 opensAt;
            uint64 closesAt;
            bool settled;
        }
        function round(address token, address asset, uint64 epoch) external view returns (Round memory);
        function claimed(bytes32 leaf) external view returns (bool);
        function claim(address token, address asset, uint64 epoch, address account, uint256 amount, bytes32[] proof) external;
        error UnknownRound(address token, address asset, uint64 epoch);
        error NotOpen(uint64 opensAt, uint256 timestamp);
        error Closed(uint64 closesAt, uint256 timestamp);
        error AlreadySettled(address token, address asset, uint64 epoch);
        error AlreadyClaimed(bytes32 leaf);
        error InvalidProof(bytes32 leaf);
        error ExceedsRound(uint256 amount, uint256 unclaimed);
    }

    interface IDuelHook {
        struct PoolKey {
            address currency0;
            address currency1;
            uint24 fee;
            int24 tickSpacing;
            address hooks;
        }
        struct Ema {
            uint256 value;
            uint64 last;
        }
        struct Duel {
            PoolKey keyA;
            PoolKey keyB;
            uint64 start;
            uint64 firstClose;
            uint64 activeRound;
            uint64 lastUpdate;
            bool hadSwap;
            int256 integral;
            int256 heldD;
            uint256 pot;
            uint32 streakA;
            uint32 streakB;
            uint32 bestA;
            uint32 bestB;
            Ema emaA;
            Ema emaB;
        }
        function duelCount() external view returns (uint256);
        function getDuel(uint256 duelId) external view returns (Duel memory);
        function pendingResult(uint256 duelId) external view returns (uint64 round, bool awaitingSettlement, int256 meanTick, uint8 winner);
        function settle(uint256 duelId) external;
        function fund(uint256 duelId) external payable;
        event RoundSettled(uint256 indexed duelId, uint64 indexed round, uint8 winner, int256 meanTick, uint256 ethSpent, uint256 tokensBurned, uint256 potAfter);
        error UnknownDuel(uint256 duelId);
        error NothingToSettle(uint256 duelId);
        error ZeroAmount();
    }

    interface ICallLedger {
        struct AgentRecord {
            uint64 hits;
            uint64 misses;
            uint64 voids;
            uint64 streak;
            uint64 bestStreak;
            uint64 openCalls;
            uint256 stake;
        }
        struct ConsensusState {
            bool reached;
            bool hasDirection;
            uint8 direction;
            uint16 strengthBps;
            uint64 voters;
            uint256 upWeight;
            uint256 downWeight;
        }
        struct ConsensusRecord {
            address asset;
            uint64 window;
            uint64 bucket;
            uint8 direction;
            uint16 strengthBps;
            uint64 voters;
            uint256 upWeight;
            uint256 downWeight;
        }
        function minStake() external view returns (uint256);
        function consensusQuorum() external view returns (uint64);
        function consensusThresholdBps() external view returns (uint16);
        function agentRecord(address who) external view returns (AgentRecord memory);
        function consensus(address asset, uint64 window) external view returns (uint64 bucket, ConsensusState memory state);
        function consensusLogLength() external view returns (uint256);
        function consensusLogAt(uint256 i) external view returns (ConsensusRecord memory);
        function commit(bytes32 commitment) external returns (uint256 id);
        function reveal(uint256 id, address asset, uint8 direction, uint64 window, bytes32 salt) external;
        event Committed(uint256 indexed id, address indexed agent, bytes32 commitment);
        error InsufficientStake(uint256 stake, uint256 minStake);
        error DuplicateCommitment(bytes32 commitment);
        error UnknownCall(uint256 id);
        error NotCallAgent(uint256 id, address caller);
        error CommitmentMismatch();
        error RevealDeadlinePassed(uint256 timestamp, uint64 deadline);
        error PriceUnavailable(address asset);
        error ZeroWindow();
    }

    interface IRootPriceOracle {
        struct RootPrice {
            int24 shortTick;
            int24 anchorTick;
            uint32 anchorWindow;
            uint256 shortPriceEth;
            uint256 anchorPriceEth;
            uint256 priceEth;
            uint256 ethUsd;
            uint256 priceUsd;
        }
        function rootPrice() external view returns (RootPrice memory p);
        error StaleAnswer(uint256 age, uint256 max);
        error AmountOutOfBounds(uint256 amount, uint256 min, uint256 max);
    }

    interface IAggregatorV3 {
        function latestRoundData() external view returns (uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound);
    }

    interface IScorerRegistry {
        struct Scorer {
            bool registered;
            uint64 registeredAt;
            uint64 lastScoreAt;
            uint64 unstakeRequestedAt;
            uint256 stake;
        }
        function scorer(address who) external view returns (Scorer memory);
        function register(uint256 maxBurnRoot) external;
        function requestUnstake() external;
        function withdrawStake() external;
        function score(address token, uint256 targetScore, bytes32 thesisHash, uint256 maxBurnRoot) external returns (uint256 scoreId);
        function scoreBurnUsd(address token) external view returns (uint256);
        error AlreadyRegistered(address scorer);
        error NotRegistered(address scorer);
        error ScoreTooSoon(uint64 nextAt);
        error Unstaking(address scorer);
        error CooldownActive(uint64 readyAt);
        // Positions and pools (C11-C14): the Scorer page's "My positions".
        struct Position {
            bool open;
            uint64 start;
            uint64 end;
            uint64 nonce;
            uint256 weight;
            uint256 snapshot;
            uint256 scoreId;
        }
        struct Pool {
            bool configured;
            address asset;
            uint64 lastUpdate;
            uint64 dripStart;
            uint64 queueHead;
            uint256 dripAmount;
            uint256 index;
            uint256 totalWeight;
            uint256 funded;
            uint256 paid;
            uint256 returned;
            uint256 returnedSwept;
        }
        struct Score {
            address scorer;
            uint64 at;
            bool proven;
            address token;
            uint256 targetScore;
            bytes32 thesisHash;
            uint256 burnedRoot;
        }
        function openTokens(address who) external view returns (address[] memory);
        function position(address token, address who) external view returns (Position memory);
        function pool(address token) external view returns (Pool memory);
        function getScore(uint256 scoreId) external view returns (Score memory);
        function maxWeight(address token) external view returns (uint256);
        function denominatorOf(address token) external view returns (uint256);
        function owedStored(address token, address who) external view returns (uint256);
        function claim(address token) external returns (uint256 amount);
        event PositionOpened(address indexed token, address indexed scorer, uint256 indexed scoreId, uint64 epoch, uint256 weight, uint64 end);
        event Claimed(address indexed token, address indexed scorer, uint256 amount);
        error PoolNotConfigured(address token);
    }

    interface IPoolManagerState {
        function extsload(bytes32 slot) external view returns (bytes32);
    }
}

/// Turns revert data into plain words (a known custom error, `Error(string)`, or the raw selector).
pub fn revert_reason(data: &[u8]) -> String {
    use ILaunchpad::ILaunchpadErrors as L;
    use IHolderDistributor::IHolderDistributorErrors as H;
    if data.is_empty() {
        return "the transaction would revert (no reason given)".into();
    }
    if let Ok(e) = L::abi_decode(data) {
        return match e {
            L::TokensOutBelowMin(x) => format!(
                "slippage: you would get {} token units, below your minimum {}",
                x.tokensOut, x.minTokensOut
            ),
            L::QuoteOutBelowMin(x) => {
                format!("slippage: you would get {} quote units, below your minimum {}", x.quoteOut, x.minQuoteOut)
            }
            L::AlreadyGraduated(_) => "this launch has graduated: it trades in its Uniswap pool now".into(),
            L::DeadlineExpired(_) => "the deadline passed before the transaction was mined".into(),
            L::UnknownToken(x) => format!("{} is not a launch of this launchpad", x.token),
            L::WrongValue(x) => format!("wrong ETH value: sent {}, expected {}", x.sent, x.expected),
            L::QuoteAssetNotAllowed(x) => format!("{} is not an allowed quote asset", x.asset),
            L::NotGraduated(_) => "this launch has not graduated yet".into(),
            L::EthTransferFailed(_) => "an ETH transfer failed".into(),
            L::NothingToCollect(_) => "no fees to collect".into(),
            L::NotFeeSink(_) => "only the fee sink may do this".into(),
            L::InvalidConfig(x) => format!("invalid configuration: {}", x.field),
        };
    }
    if let Ok(e) = H::abi_decode(data) {
        return match e {
            H::NotOpen(x) => format!("the claim window opens at {} (unix time)", x.opensAt),
            H::Closed(_) => "the claim window has closed".into(),
            H::AlreadyClaimed(_) => "this payout was already claimed".into(),
            H::InvalidProof(_) => "the proof does not match the posted root".into(),
            H::UnknownRound(_) => "no such payout round".into(),
            H::AlreadySettled(_) => "the round was rolled over".into(),
            H::ExceedsRound(_) => "the amount exceeds what the round has left".into(),
        };
    }
    if let Ok(e) = IERC20::IERC20Errors::abi_decode(data) {
        return match e {
            IERC20::IERC20Errors::ERC20InsufficientBalance(x) => {
                format!("insufficient token balance: have {}, need {}", x.balance, x.needed)
            }
            IERC20::IERC20Errors::ERC20InsufficientAllowance(x) => {
                format!("insufficient allowance: {} approved, {} needed", x.allowance, x.needed)
            }
        };
    }
    if let Ok(e) = ICallLedger::ICallLedgerErrors::abi_decode(data) {
        use ICallLedger::ICallLedgerErrors as C;
        return match e {
            C::InsufficientStake(x) => format!("your stake ({} units) is below the minimum ({} units): stake first", x.stake, x.minStake),
            C::DuplicateCommitment(_) => "this commitment was already posted: use a new salt".into(),
            C::UnknownCall(x) => format!("there is no call {}", x.id),
            C::NotCallAgent(_) => "only the agent who committed this call may reveal it".into(),
            C::CommitmentMismatch(_) => "the revealed call does not match the commitment (asset, direction, window or salt differ)".into(),
            C::RevealDeadlinePassed(_) => "the reveal deadline (1 hour after the commit) has passed".into(),
            C::PriceUnavailable(_) => "no price is available for this asset right now".into(),
            C::ZeroWindow(_) => "the window must be more than zero seconds".into(),
        };
    }
    if let Ok(e) = IRootPriceOracle::IRootPriceOracleErrors::abi_decode(data) {
        return match e {
            IRootPriceOracle::IRootPriceOracleErrors::StaleAnswer(x) => format!("the ETH/USD price is stale ({} s old, at most {} s allowed): no burn can be priced now", x.age, x.max),
            IRootPriceOracle::IRootPriceOracleErrors::AmountOutOfBounds(x) => format!("the ROOT burn ({} units) is above your cap ({} units): the price moved, try again", x.amount, x.max),
        };
    }
    if let Ok(e) = IScorerRegistry::IScorerRegistryErrors::abi_decode(data) {
        return match e {
            IScorerRegistry::IScorerRegistryErrors::AlreadyRegistered(_) => "this account is already registered as a scorer".into(),
            IScorerRegistry::IScorerRegistryErrors::NotRegistered(_) => "this account is not registered as a scorer".into(),
            IScorerRegistry::IScorerRegistryErrors::ScoreTooSoon(x) => format!("the 14-day limit: the next score is allowed at {} (unix time)", x.nextAt),
            IScorerRegistry::IScorerRegistryErrors::Unstaking(_) => "this scorer is unstaking".into(),
            IScorerRegistry::IScorerRegistryErrors::CooldownActive(x) => format!("the 7-day unstake cooldown ends at {} (unix time)", x.readyAt),
            IScorerRegistry::IScorerRegistryErrors::PoolNotConfigured(x) => format!("token {} has no scorer reward pool yet", x.token),
        };
    }
    if let Ok(e) = IDuelHook::IDuelHookErrors::abi_decode(data) {
        return match e {
            IDuelHook::IDuelHookErrors::NothingToSettle(_) => "this duel's round has not closed yet: nothing to settle".into(),
            IDuelHook::IDuelHookErrors::UnknownDuel(x) => format!("there is no duel {}", x.duelId),
            IDuelHook::IDuelHookErrors::ZeroAmount(_) => "the amount must be more than zero".into(),
        };
    }
    if let Ok(s) = <alloy_sol_types::Revert as alloy_sol_types::SolError>::abi_decode(data) {
        return s.reason;
    }
    format!("the transaction would revert ({})", hex::encode_prefixed(Bytes::copy_from_slice(data)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloy_primitives::U256;
    use alloy_sol_types::SolError;

    #[test]
    fn revert_reasons_in_words() {
        let e = ILaunchpad::TokensOutBelowMin { tokensOut: U256::from(5), minTokensOut: U256::from(7) };
        assert!(revert_reason(&e.abi_encode()).contains("slippage"));
        let r = alloy_sol_types::Revert { reason: "nope".into() };
        assert_eq!(revert_reason(&r.abi_encode()), "nope");
        assert!(revert_reason(&[]).contains("no reason"));
        assert!(revert_reason(&[1, 2, 3, 4]).contains("0x01020304"));
    }
}

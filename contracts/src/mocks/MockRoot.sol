// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {ERC20Burnable} from "@openzeppelin/contracts/token/ERC20/extensions/ERC20Burnable.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";

/// @notice ROOT stand-in for tests and the local chain: 18 decimals, burnable, owner-mintable. Not for production.
contract MockRoot is ERC20, ERC20Burnable, Ownable {
    constructor(address owner_) ERC20("Eden ROOT (mock)", "ROOT") Ownable(owner_) {}

    function mint(address to, uint256 amount) external onlyOwner {
        _mint(to, amount);
    }
}

// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

interface IBedSilo {
    function asset() external view returns (address);
}

/// @title TestSiloConfig
/// @notice A Silo v2 market's SiloConfig for local chain beds: the two views our adapter calls,
/// with the signatures of silo-finance/silo-contracts-v2's ISiloConfig
/// (silo-core/contracts/interfaces/ISiloConfig.sol @ 0253d0daff37b50b1bea9aa3932163d597022f38).
/// @dev On mainnet the SiloFactory deploys the config and both silos (each an ERC-4626 vault,
/// `ISilo is IERC20, IERC4626`); here the bed deploys two TestVault4626 and names them.
contract TestSiloConfig {
    address private immutable _SILO0;
    address private immutable _SILO1;

    /// @dev As ISiloConfig: a silo that is not one of the pair.
    error WrongSilo();

    constructor(address silo0, address silo1) {
        _SILO0 = silo0;
        _SILO1 = silo1;
    }

    /// @notice The addresses of the two silos (ISiloConfig.getSilos).
    function getSilos() external view returns (address, address) {
        return (_SILO0, _SILO1);
    }

    /// @notice The asset of one of the two silos; reverts for another address
    /// (ISiloConfig.getAssetForSilo).
    function getAssetForSilo(address silo) external view returns (address) {
        if (silo != _SILO0 && silo != _SILO1) revert WrongSilo();
        return IBedSilo(silo).asset();
    }
}

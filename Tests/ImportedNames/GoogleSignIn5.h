// Google Sign-In 5.x's public Objective-C API, as google/GoogleSignIn-iOS f8f0517 (its first
// commit) declares it: the selectors, types and nullability of GoogleSignIn/Sources/Public/
// GoogleSignIn/*.h, transcribed as facts (no comments, no implementation), so that Swift's
// importer gives the names a Swift app calls. Run by Tests/ImportedNames/run.sh.
#include "GTMFetcherAuthorization.h"
#pragma clang assume_nonnull begin
@class GIDAuthentication;
@class GIDGoogleUser;
@class GIDProfileData;
@class GIDSignIn;

typedef void (^GIDAuthenticationAction)(GIDAuthentication *authentication, NSError *_Nullable error);
@interface GIDAuthentication : NSObject <NSSecureCoding>
@property(nonatomic, readonly) NSString *clientID;
@property(nonatomic, readonly) NSString *accessToken;
@property(nonatomic, readonly) NSDate *accessTokenExpirationDate;
@property(nonatomic, readonly) NSString *refreshToken;
@property(nonatomic, readonly, nullable) NSString *idToken;
@property(nonatomic, readonly, nullable) NSDate *idTokenExpirationDate;
- (id<GTMFetcherAuthorizationProtocol>)fetcherAuthorizer;
- (void)doWithFreshTokens:(GIDAuthenticationAction)action;
@end

@interface GIDConfiguration : NSObject <NSCopying, NSSecureCoding>
@property(nonatomic, readonly) NSString *clientID;
@property(nonatomic, readonly, nullable) NSString *serverClientID;
@property(nonatomic, readonly, nullable) NSString *loginHint;
@property(nonatomic, readonly, nullable) NSString *hostedDomain;
@property(nonatomic, readonly, nullable) NSString *openIDRealm;
- (instancetype)init __attribute__((unavailable));
- (instancetype)initWithClientID:(NSString *)clientID;
- (instancetype)initWithClientID:(NSString *)clientID serverClientID:(nullable NSString *)serverClientID;
- (instancetype)initWithClientID:(NSString *)clientID
                  serverClientID:(nullable NSString *)serverClientID
                       loginHint:(nullable NSString *)loginHint
                    hostedDomain:(nullable NSString *)hostedDomain
                     openIDRealm:(nullable NSString *)openIDRealm __attribute__((objc_designated_initializer));
@end

@interface GIDGoogleUser : NSObject <NSSecureCoding>
@property(nonatomic, readonly, nullable) NSString *userID;
@property(nonatomic, readonly, nullable) GIDProfileData *profile;
@property(nonatomic, readonly) GIDAuthentication *authentication;
@property(nonatomic, readonly, nullable) NSArray *grantedScopes;
@property(nonatomic, readonly, nullable) NSString *hostedDomain;
@property(nonatomic, readonly, nullable) NSString *serverAuthCode;
@end

@interface GIDProfileData : NSObject <NSCopying, NSSecureCoding>
@property(nonatomic, readonly) NSString *email;
@property(nonatomic, readonly) NSString *name;
@property(nonatomic, readonly) NSString *givenName;
@property(nonatomic, readonly) NSString *familyName;
@property(nonatomic, readonly) BOOL hasImage;
- (NSURL *)imageURLWithDimension:(NSUInteger)dimension;
@end

extern NSString *const kGIDSignInErrorDomain;
typedef NS_ENUM(NSInteger, GIDSignInErrorCode) {
  kGIDSignInErrorCodeUnknown = -1,
  kGIDSignInErrorCodeKeychain = -2,
  kGIDSignInErrorCodeHasNoAuthInKeychain = -4,
  kGIDSignInErrorCodeCanceled = -5,
  kGIDSignInErrorCodeEMM = -6,
};

@protocol GIDSignInDelegate <NSObject>
- (void)signIn:(GIDSignIn *)signIn didSignInForUser:(nullable GIDGoogleUser *)user withError:(nullable NSError *)error;
@optional
- (void)signIn:(GIDSignIn *)signIn didDisconnectWithUser:(nullable GIDGoogleUser *)user withError:(nullable NSError *)error;
@end

@interface GIDSignIn : NSObject
@property(nonatomic, readonly, nullable) GIDGoogleUser *currentUser;
@property(nonatomic, weak, nullable) id<GIDSignInDelegate> delegate;
@property(nonatomic, weak, nullable) UIViewController *presentingViewController;
@property(nonatomic, copy, nullable) NSString *clientID;
@property(nonatomic, copy, nullable) NSArray<NSString *> *scopes;
@property(nonatomic, assign) BOOL shouldFetchBasicProfile;
@property(nonatomic, copy, nullable) NSString *loginHint;
@property(nonatomic, copy, nullable) NSString *serverClientID;
@property(nonatomic, copy, nullable) NSString *openIDRealm;
@property(nonatomic, copy, nullable) NSString *hostedDomain;
+ (GIDSignIn *)sharedInstance;
+ (instancetype)new __attribute__((unavailable));
- (instancetype)init __attribute__((unavailable));
- (BOOL)handleURL:(NSURL *)url;
- (BOOL)hasPreviousSignIn;
- (void)restorePreviousSignIn;
- (void)signIn;
- (void)signOut;
- (void)disconnect;
@end

typedef NS_ENUM(NSInteger, GIDSignInButtonStyle) {
  kGIDSignInButtonStyleStandard = 0,
  kGIDSignInButtonStyleWide = 1,
  kGIDSignInButtonStyleIconOnly = 2
};
typedef NS_ENUM(NSInteger, GIDSignInButtonColorScheme) {
  kGIDSignInButtonColorSchemeDark = 0,
  kGIDSignInButtonColorSchemeLight = 1
};
@interface GIDSignInButton : UIControl
@property(nonatomic, assign) GIDSignInButtonStyle style;
@property(nonatomic, assign) GIDSignInButtonColorScheme colorScheme;
@end
#pragma clang assume_nonnull end

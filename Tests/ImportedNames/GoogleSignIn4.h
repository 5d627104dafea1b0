// Google Sign-In 4.x's public Objective-C API, transcribed as facts (selectors and types; 4.x's
// headers carry no nullability): GIDSignIn.h as the seed document has it, and GIDAuthentication,
// GIDGoogleUser and GIDProfileData as 4.x declared them (the handler-based token calls, the
// deprecated access-token calls and accessibleScopes). Run by Tests/ImportedNames/run.sh.
#include "GTMFetcherAuthorization.h"
@class GIDAuthentication;
@class GIDGoogleUser;
@class GIDProfileData;
@class GIDSignIn;

typedef void (^GIDAuthenticationHandler)(GIDAuthentication *authentication, NSError *error);
typedef void (^GIDAccessTokenHandler)(NSString *accessToken, NSError *error);
@interface GIDAuthentication : NSObject <NSSecureCoding>
@property(nonatomic, readonly) NSString *clientID;
@property(nonatomic, readonly) NSString *accessToken;
@property(nonatomic, readonly) NSDate *accessTokenExpirationDate;
@property(nonatomic, readonly) NSString *refreshToken;
@property(nonatomic, readonly) NSString *idToken;
@property(nonatomic, readonly) NSDate *idTokenExpirationDate;
- (id<GTMFetcherAuthorizationProtocol>)fetcherAuthorizer;
- (void)getTokensWithHandler:(GIDAuthenticationHandler)handler;
- (void)refreshTokensWithHandler:(GIDAuthenticationHandler)handler;
- (void)getAccessTokenWithHandler:(GIDAccessTokenHandler)handler __attribute__((deprecated));
- (void)refreshAccessTokenWithHandler:(GIDAccessTokenHandler)handler __attribute__((deprecated));
@end

@interface GIDGoogleUser : NSObject <NSSecureCoding>
@property(nonatomic, readonly) NSString *userID;
@property(nonatomic, readonly) GIDAuthentication *authentication;
@property(nonatomic, readonly) NSArray *grantedScopes;
@property(nonatomic, readonly) NSArray *accessibleScopes __attribute__((deprecated));
@property(nonatomic, readonly) NSString *hostedDomain;
@property(nonatomic, readonly) NSString *serverAuthCode;
@property(nonatomic, readonly) GIDProfileData *profile;
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
  kGIDSignInErrorCodeNoSignInHandlersInstalled = -3,
  kGIDSignInErrorCodeHasNoAuthInKeychain = -4,
  kGIDSignInErrorCodeCanceled = -5,
};

@protocol GIDSignInDelegate <NSObject>
- (void)signIn:(GIDSignIn *)signIn didSignInForUser:(GIDGoogleUser *)user withError:(NSError *)error;
@optional
- (void)signIn:(GIDSignIn *)signIn didDisconnectWithUser:(GIDGoogleUser *)user withError:(NSError *)error;
@end

@protocol GIDSignInUIDelegate <NSObject>
@optional
- (void)signInWillDispatch:(GIDSignIn *)signIn error:(NSError *)error;
- (void)signIn:(GIDSignIn *)signIn presentViewController:(UIViewController *)viewController;
- (void)signIn:(GIDSignIn *)signIn dismissViewController:(UIViewController *)viewController;
@end

@interface GIDSignIn : NSObject
@property(nonatomic, readonly) GIDGoogleUser *currentUser;
@property(nonatomic, weak) id<GIDSignInDelegate> delegate;
@property(nonatomic, weak) id<GIDSignInUIDelegate> uiDelegate;
@property(nonatomic, copy) NSString *clientID;
@property(nonatomic, copy) NSArray *scopes;
@property(nonatomic, assign) BOOL shouldFetchBasicProfile;
@property(nonatomic, copy) NSString *language;
@property(nonatomic, copy) NSString *loginHint;
@property(nonatomic, copy) NSString *serverClientID;
@property(nonatomic, copy) NSString *openIDRealm;
@property(nonatomic, copy) NSString *hostedDomain;
+ (GIDSignIn *)sharedInstance;
- (BOOL)handleURL:(NSURL *)url sourceApplication:(NSString *)sourceApplication annotation:(id)annotation;
- (BOOL)hasAuthInKeychain;
- (void)signInSilently;
- (void)signIn;
- (void)signOut;
- (void)disconnect;
@end
